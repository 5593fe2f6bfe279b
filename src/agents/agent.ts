// `handoff agent install <agent> | uninstall <agent> | status [agent]`: put our hooks
// into an agent's project settings, or our block into the instruction file it reads,
// and take exactly those out again. One line per file changed.
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { AGENTS, isOurCommand, type AgentSpec } from './agents.js';
import { FileFormatError, UsageError } from '../core/errors.js';
import { addHooks, installedCommands, removeHooks, type HookEntry } from './hook-settings.js';
import { hasBlock, removeBlock, upsertBlock } from './marked-block.js';
import { deleteFile } from './agent-files.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { printJson } from '../command/output.js';
import { blockContent } from './pins-block.js';

const ACTIONS = ['install', 'uninstall', 'status'];

function pick(name: string | undefined, action: string): AgentSpec[] {
  if (name === undefined || name === 'all') {
    if (action === 'install')
      throw new UsageError(`'handoff agent install' needs <agent>: one of ${AGENTS.map((a) => a.name).join(', ')}`);
    return AGENTS;
  }
  const agent = AGENTS.find((a) => a.name === name);
  if (!agent)
    throw new UsageError(`no agent named '${name}'; expected one of ${AGENTS.map((a) => a.name).join(', ')} or all`);
  return [agent];
}

async function install(ctx: Context, agent: AgentSpec, meter: boolean): Promise<void> {
  // Every change is worked out before any file is written: a refused file leaves all as it was.
  const writes: Array<() => Promise<void>> = [];
  if (agent.settings) {
    const file = path.join(ctx.root, agent.settings.file);
    const shown = ctx.rel(file);
    const wanted: HookEntry[] = [...agent.settings.hooks, ...(meter ? (agent.settings.meter ?? []) : [])];
    const { text, added } = addHooks(await readText(file), wanted, shown);
    writes.push(async () => {
      if (added.length > 0) {
        await replaceFileAtomic(file, text);
        ctx.stderr(
          `handoff: ${shown}: added the ${added.map((h) => h.event).join(', ')} hook${added.length === 1 ? '' : 's'} for ${agent.title}`,
        );
      } else {
        ctx.stderr(`handoff: ${shown}: the ${agent.title} hooks are already installed; nothing changed`);
      }
    });
  }
  if (agent.block) {
    const file = path.join(ctx.root, agent.block.file);
    const shown = ctx.rel(file);
    const result = upsertBlock(
      await readText(file),
      await blockContent(ctx, agent.block.pins === true),
      shown,
      agent.block.limitBytes,
    );
    writes.push(async () => {
      if (result.action !== 'unchanged') await replaceFileAtomic(file, result.text);
      ctx.stderr(
        `handoff: ${shown}: ${result.action === 'unchanged' ? 'the handoff block is already current; nothing changed' : `${result.action} the handoff block for ${agent.title}`}`,
      );
      if (result.note) ctx.stderr(`handoff: ${result.note}`);
    });
  }
  for (const owned of agent.files ?? []) {
    const file = path.join(ctx.root, owned.file);
    const shown = ctx.rel(file);
    const wanted = await readTemplate(owned.template);
    const before = await readText(file);
    if (before !== undefined && before !== wanted && !isOurFile(before)) {
      throw new FileFormatError(
        shown,
        `exists and was not written by handoff; move it aside to install the ${agent.title} integration`,
      );
    }
    writes.push(async () => {
      if (before === wanted) return ctx.stderr(`handoff: ${shown}: already current; nothing changed`);
      await mkdir(path.dirname(file), { recursive: true });
      await replaceFileAtomic(file, wanted);
      ctx.stderr(`handoff: ${shown}: ${before === undefined ? 'added' : 'updated'} for ${agent.title}`);
    });
  }
  for (const write of writes) await write();
  if (agent.note) ctx.stderr(`handoff: note: ${agent.note}`);
}

/** Files we own carry our name on their first lines; a file without it is the user's. */
const isOurFile = (text: string) =>
  text
    .split('\n')
    .slice(0, 3)
    .some((l) => l.includes('git-handoff'));

async function uninstall(ctx: Context, agent: AgentSpec): Promise<void> {
  for (const owned of agent.files ?? []) {
    const file = path.join(ctx.root, owned.file);
    const before = await readText(file);
    if (before === undefined) continue;
    if (!isOurFile(before)) {
      ctx.stderr(`handoff: ${ctx.rel(file)}: not written by handoff; left as it is`);
      continue;
    }
    await deleteFile(file);
    await removeEmptyDirs(path.dirname(file), ctx.root);
    ctx.stderr(`handoff: ${ctx.rel(file)}: removed`);
  }
  if (agent.settings) {
    const file = path.join(ctx.root, agent.settings.file);
    const before = await readText(file);
    const { text, removed } =
      before === undefined ? { text: '', removed: [] } : removeHooks(before, isOurCommand, ctx.rel(file));
    if (removed.length > 0) await replaceFileAtomic(file, text);
    ctx.stderr(
      `handoff: ${ctx.rel(file)}: ${removed.length > 0 ? `removed ${removed.length} handoff hook${removed.length === 1 ? '' : 's'}` : 'no handoff hooks; nothing changed'}`,
    );
  }
  if (agent.block) {
    const file = path.join(ctx.root, agent.block.file);
    const before = await readText(file);
    const after = before === undefined ? null : removeBlock(before, ctx.rel(file));
    if (after === null) {
      ctx.stderr(`handoff: ${ctx.rel(file)}: no handoff block; nothing changed`);
    } else if (after.trim() === '') {
      await deleteFile(file);
      ctx.stderr(`handoff: ${ctx.rel(file)}: removed the handoff block and the file, which held nothing else`);
    } else {
      await replaceFileAtomic(file, after);
      ctx.stderr(`handoff: ${ctx.rel(file)}: removed the handoff block`);
    }
  }
}

/** The folders install created for a file, once they hold nothing else. */
async function removeEmptyDirs(dir: string, root: string): Promise<void> {
  for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
  }
}

interface Status {
  agent: string;
  title: string;
  file: string;
  kind: 'hooks' | 'block' | 'file';
  installed: string[];
  missing: string[];
}

async function status(ctx: Context, agent: AgentSpec): Promise<Status[]> {
  const out: Status[] = [];
  if (agent.settings) {
    const file = path.join(ctx.root, agent.settings.file);
    const text = await readText(file);
    const all = [...agent.settings.hooks, ...(agent.settings.meter ?? [])];
    const present = (h: HookEntry) => installedCommands(text, h.event, ctx.rel(file)).includes(h.command);
    const installed = all.filter(present).map((h) => h.event);
    // The opt-in meter hook is not "missing" when it was never asked for.
    const missing = agent.settings.hooks.filter((h) => !present(h)).map((h) => h.event);
    out.push({ agent: agent.name, title: agent.title, file: ctx.rel(file), kind: 'hooks', installed, missing });
  }
  for (const owned of agent.files ?? []) {
    const file = path.join(ctx.root, owned.file);
    const text = await readText(file);
    const has = text !== undefined && isOurFile(text);
    out.push({
      agent: agent.name,
      title: agent.title,
      file: ctx.rel(file),
      kind: 'file',
      installed: has ? ['file'] : [],
      missing: has ? [] : ['file'],
    });
  }
  if (agent.block) {
    const file = path.join(ctx.root, agent.block.file);
    const has = hasBlock(await readText(file), ctx.rel(file));
    out.push({
      agent: agent.name,
      title: agent.title,
      file: ctx.rel(file),
      kind: 'block',
      installed: has ? ['block'] : [],
      missing: has ? [] : ['block'],
    });
  }
  return out;
}

export async function run(ctx: Context, args: ArgsOf<'agent'>): Promise<Outcome> {
  const [action, name] = args.positionals;
  if (!ACTIONS.includes(action))
    throw new UsageError(`'handoff agent' takes install, uninstall or status; got '${action}'`);
  const agents = pick(name, action);
  if (action === 'install') {
    for (const agent of agents) await install(ctx, agent, args.values.meter === true);
    return;
  }
  if (action === 'uninstall') {
    for (const agent of agents) await uninstall(ctx, agent);
    return;
  }
  const rows = (await Promise.all(agents.map((a) => status(ctx, a)))).flat();
  if (args.values.json) {
    printJson(ctx, { integrations: rows });
    return;
  }
  for (const row of rows) {
    const state =
      row.missing.length === 0
        ? 'installed'
        : row.installed.length === 0
          ? 'not installed'
          : `partly installed (missing ${row.missing.join(', ')})`;
    const detail = row.kind === 'hooks' && row.installed.length > 0 ? ` (${row.installed.join(', ')})` : '';
    ctx.stdout(
      `${row.agent.padEnd(10)} ${row.kind.padEnd(6)} ${row.file}: ${state}${row.missing.length === 0 ? detail : ''}\n`,
    );
    const note = AGENTS.find((a) => a.name === row.agent)?.statusNote;
    if (note && row.kind === 'hooks' && row.installed.length > 0) ctx.stdout(`${' '.repeat(18)}note: ${note}\n`);
  }
}
