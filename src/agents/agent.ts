// `handoff agent install <agent> | uninstall <agent> | status [agent]`: put our hooks
// into an agent's project settings, or our block into the instruction file it reads,
// and take exactly those out again. One line per file changed. What install writes is
// decided in agent-plan.ts; status verifies against it byte for byte, runs the hook
// command once, and reads the agent's latest session for the pins.
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { AGENTS, type AgentSpec } from './agents.js';
import { FileFormatError, UsageError } from '../core/errors.js';
import { removeHooks } from './hook-settings.js';
import { removeBlock } from './marked-block.js';
import { deleteFile, makeExecutable } from './agent-files.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { homeShort, printJson } from '../command/output.js';
import { blockContent } from './pins-block.js';
import { installWrites, isOurFile, verifyAgent, type PlanInput, type Verified } from './agent-plan.js';
import { CONFIG_BIN, CONFIG_NODE, isOurCommand, recordable } from './hook-command.js';
import { probe, type Probe } from './hook-probe.js';

const ACTIONS = ['install', 'uninstall', 'status'];

function pick(name: string | undefined, action: string): AgentSpec[] {
  if (name === undefined && action === 'install')
    throw new UsageError(
      `'handoff agent install' needs <agent>: one of ${AGENTS.map((a) => a.name).join(', ')} or all`,
    );
  if (name === undefined || name === 'all') return AGENTS;
  const agent = AGENTS.find((a) => a.name === name);
  if (!agent)
    throw new UsageError(`no agent named '${name}'; expected one of ${AGENTS.map((a) => a.name).join(', ')} or all`);
  return [agent];
}

/** What one run of install or uninstall (of one agent, or of all) has done so far. */
interface RunState {
  /** Files written or reported: AGENTS.md is shared, and is said once. */
  said: Set<string>;
  /** The agents this run installs or uninstalls. */
  agents: AgentSpec[];
  probed: boolean;
}

/** Does the agent run our hook command (settings hooks, or a plugin that runs it)? */
const runsCommand = (agent: AgentSpec) => agent.settings !== undefined || (agent.files ?? []).some((f) => f.hooks);

/** Everything the plan reads, read first: the plan itself is pure. */
async function planInput(ctx: Context, agent: AgentSpec, meter: boolean): Promise<PlanInput> {
  const files = [agent.settings?.file, agent.block?.file, ...(agent.files ?? []).map((f) => f.file)].filter(
    (f): f is string => f !== undefined,
  );
  const texts = new Map<string, string | undefined>();
  for (const f of files) texts.set(f, await readText(path.join(ctx.root, f)));
  const templates = new Map<string, string>();
  for (const f of agent.files ?? []) if (f.template) templates.set(f.template, await readTemplate(f.template));
  const block = agent.block ? await blockContent(ctx, agent.block.pins === true) : '';
  return {
    read: (f) => texts.get(f),
    template: (t) => templates.get(t)!,
    block: () => block,
    meter,
  };
}

/** Install refuses a file of ours by name that someone else wrote, before anything is written. */
async function refuseForeign(ctx: Context, agent: AgentSpec): Promise<void> {
  for (const owned of agent.files ?? []) {
    const before = await readText(path.join(ctx.root, owned.file));
    if (before !== undefined && !isOurFile(before))
      throw new FileFormatError(
        ctx.rel(path.join(ctx.root, owned.file)),
        `exists and was not written by handoff; move it aside to install the ${agent.title} integration`,
      );
  }
}

async function install(ctx: Context, agent: AgentSpec, meter: boolean, run: RunState): Promise<void> {
  // Every change is worked out before any file is written (foreign files were refused
  // first, refuseForeign): a refused file or block leaves all as it was.
  const input = await planInput(ctx, agent, meter);
  const writes = installWrites(agent, input);
  // The git config first: one that cannot be written fails the install before any file is.
  const recorded = runsCommand(agent) ? await recordCli(ctx) : null;
  for (const w of writes) {
    const file = path.join(ctx.root, w.file);
    const shown = ctx.rel(file);
    if (w.change === '') {
      if (!run.said.has(w.file))
        ctx.stderr(
          `handoff: ${shown}: ${w.kind === 'hooks' ? `the ${agent.title} hooks are already installed` : w.kind === 'block' ? 'the handoff block is already current' : 'already current'}; nothing changed`,
        );
      run.said.add(w.file);
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    await replaceFileAtomic(file, w.after);
    if (agent.files?.some((f) => f.file === w.file && f.executable)) await makeExecutable(file);
    ctx.stderr(`handoff: ${shown}: ${w.change} for ${agent.title}`);
    if (w.note) ctx.stderr(`handoff: ${w.note}`);
    run.said.add(w.file);
  }
  if (recorded) ctx.stderr(recorded);
  if (runsCommand(agent) && !run.probed) {
    run.probed = true;
    const p = await probe(ctx.root, ctx.env);
    if (!p.ok)
      ctx.stderr(
        `handoff: warning: the hook command does not work here (${p.problem}); install git-handoff globally or as a devDependency, or run this install with the CLI the hooks should use`,
      );
  }
  if (agent.note && !(await noteAnswered(ctx, agent))) ctx.stderr(`handoff: note: ${agent.note}`);
}

/** pi's trust note is said only while pi does not trust the project. */
async function noteAnswered(ctx: Context, agent: AgentSpec): Promise<boolean> {
  if (agent.name !== 'pi') return false;
  const { piTrusts } = await import('./pi-trust.js');
  return (await piTrusts(ctx.root, ctx.env)) === true;
}

/**
 * This clone's git config remembers the CLI that ran install, for the hook command to find
 * (hook-command.ts): never a bin inside the work tree, which a branch could replace.
 * Returns the line that says so, for after the files; null when it was already recorded.
 */
async function recordCli(ctx: Context): Promise<string | null> {
  const git = await ctx.git();
  const { currentCli } = await import('../git-hooks/hook-files.js');
  const cli = currentCli();
  const bin = recordable(cli.bin, ctx.root, path.sep) ? cli.bin : null;
  const same = (await git.config(CONFIG_NODE, true)) === cli.node && (await git.config(CONFIG_BIN, true)) === bin;
  if (same) return null;
  await git.setLocalConfig(CONFIG_NODE, cli.node);
  if (bin) await git.setLocalConfig(CONFIG_BIN, bin);
  else await git.unsetLocalConfig(CONFIG_BIN);
  return `handoff: recorded ${bin ? 'the CLI' : 'the node binary'} in this clone's git config (${bin ? `${CONFIG_NODE}, ${CONFIG_BIN}` : CONFIG_NODE}) for the agents' hook command`;
}

async function uninstall(ctx: Context, agent: AgentSpec, run: RunState): Promise<void> {
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
    const n = `${removed.length} handoff hook${removed.length === 1 ? '' : 's'}`;
    if (removed.length > 0 && /^\{\s*\}\s*$/.test(text)) {
      // Nothing but our hooks was in it: install created it, so it goes, with the folder it made.
      await deleteFile(file);
      await removeEmptyDirs(path.dirname(file), ctx.root);
      ctx.stderr(`handoff: ${ctx.rel(file)}: removed ${n} and the file, which held nothing else`);
    } else {
      if (removed.length > 0) await replaceFileAtomic(file, text);
      ctx.stderr(
        `handoff: ${ctx.rel(file)}: ${removed.length > 0 ? `removed ${n}` : 'no handoff hooks; nothing changed'}`,
      );
    }
  }
  if (agent.block && !run.said.has(agent.block.file)) {
    const file = path.join(ctx.root, agent.block.file);
    const before = await readText(file);
    const after = before === undefined ? null : removeBlock(before, ctx.rel(file));
    const users = after === null ? [] : await blockUsers(ctx, agent.block.file, run);
    if (after === null) {
      run.said.add(agent.block.file);
      ctx.stderr(`handoff: ${ctx.rel(file)}: no handoff block; nothing changed`);
    } else if (users.length > 0) {
      ctx.stderr(
        `handoff: ${ctx.rel(file)}: kept the handoff block, which ${users.join(', ')} still ${users.length === 1 ? 'uses' : 'use'}`,
      );
    } else if (after.trim() === '') {
      run.said.add(agent.block.file);
      await deleteFile(file);
      ctx.stderr(`handoff: ${ctx.rel(file)}: removed the handoff block and the file, which held nothing else`);
    } else {
      run.said.add(agent.block.file);
      await replaceFileAtomic(file, after);
      ctx.stderr(`handoff: ${ctx.rel(file)}: removed the handoff block`);
    }
  }
  await forgetCli(ctx);
}

/**
 * The agents that still read a shared block (codex, opencode, pi and kilo all read AGENTS.md),
 * installed as status says (something of theirs besides the block is there), other than those
 * this run uninstalls: the block goes with the last of them.
 */
async function blockUsers(ctx: Context, file: string, run: RunState): Promise<string[]> {
  const users: string[] = [];
  for (const agent of AGENTS) {
    if (agent.block?.file !== file || run.agents.includes(agent)) continue;
    const input = await planInput(ctx, agent, false);
    if (verifyAgent(agent, input).some((v) => v.kind !== 'block' && v.state !== 'missing')) users.push(agent.title);
  }
  return users;
}

/** The recorded CLI goes with the last integration that runs the hook command. */
async function forgetCli(ctx: Context): Promise<void> {
  for (const agent of AGENTS.filter(runsCommand)) {
    const input = await planInput(ctx, agent, false);
    if (verifyAgent(agent, input).some((v) => v.kind !== 'block' && v.state !== 'missing')) return;
  }
  const git = await ctx.git();
  const had = (await git.unsetLocalConfig(CONFIG_NODE)) || false;
  const hadBin = await git.unsetLocalConfig(CONFIG_BIN);
  if (had || hadBin)
    ctx.stderr(`handoff: removed ${CONFIG_NODE}${hadBin ? ` and ${CONFIG_BIN}` : ''} from this clone's git config`);
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

interface Row extends Verified {
  agent: string;
  title: string;
}

async function rowsFor(ctx: Context, agent: AgentSpec): Promise<Row[]> {
  const input = await planInput(ctx, agent, false);
  return verifyAgent(agent, input).map((v) => ({ agent: agent.name, title: agent.title, ...v }));
}

export async function run(ctx: Context, args: ArgsOf<'agent'>): Promise<Outcome> {
  const [action, name] = args.positionals;
  if (!ACTIONS.includes(action))
    throw new UsageError(`'handoff agent' takes install, uninstall or status; got '${action}'`);
  const agents = pick(name, action);
  const state: RunState = { said: new Set(), agents, probed: false };
  if (action === 'install') {
    for (const agent of agents) await refuseForeign(ctx, agent);
    for (const agent of agents) await install(ctx, agent, args.values.meter === true, state);
    return;
  }
  if (action === 'uninstall') {
    for (const agent of agents) await uninstall(ctx, agent, state);
    return;
  }
  await status(ctx, agents, args.values.json === true);
}

async function status(ctx: Context, agents: AgentSpec[], json: boolean): Promise<void> {
  const rows = (await Promise.all(agents.map((a) => rowsFor(ctx, a)))).flat();
  const using = agents.filter((a) => runsCommand(a) && rows.some((r) => r.agent === a.name && r.state !== 'missing'));
  const command: Probe | null = using.length > 0 ? await probe(ctx.root, ctx.env) : null;
  const { deliveries, lastCompaction } = await import('./delivery.js');
  const installed = agents.filter((a) => rows.some((r) => r.agent === a.name && r.state !== 'missing'));
  const delivered = await deliveries(
    ctx,
    installed.map((a) => a.name),
  );
  const compaction = await lastCompaction(ctx);
  const hookCommand = command && {
    works: command.ok,
    ...(command.bin ? { bin: homeShort(command.bin, ctx.env.HOME) } : {}),
    ...(command.version ? { version: command.version } : {}),
    ...(command.problem ? { problem: command.problem } : {}),
  };
  if (json) {
    printJson(ctx, {
      integrations: rows.map(({ agent, title, file, kind, state, installed, modified, missing }) => ({
        agent,
        title,
        file,
        kind,
        state,
        installed,
        modified,
        missing,
      })),
      hookCommand,
      delivery: Object.fromEntries(delivered),
      lastCompaction: compaction,
    });
    return;
  }
  for (const row of rows) {
    const state =
      row.state === 'partly installed'
        ? `partly installed (missing ${row.missing.join(', ')})`
        : row.state === 'modified'
          ? `MODIFIED: differs from what 'handoff agent install ${row.agent}' writes${row.modified.length > 0 ? ` (${row.modified.join(', ')})` : ''}; review it, then run install again to replace it`
          : row.state === 'missing'
            ? 'not installed'
            : 'installed';
    const detail = row.kind === 'hooks' && row.state === 'installed' ? ` (${row.installed.join(', ')})` : '';
    ctx.stdout(`${row.agent.padEnd(10)} ${row.kind.padEnd(6)} ${row.file}: ${state}${detail}\n`);
    const spec = AGENTS.find((a) => a.name === row.agent);
    const note = spec?.statusNote;
    const first = rows.find((r) => r.agent === row.agent && r.state !== 'missing') === row;
    if (note && first && spec && !(await noteAnswered(ctx, spec))) ctx.stdout(`${' '.repeat(18)}note: ${note}\n`);
  }
  if (hookCommand)
    ctx.stdout(
      hookCommand.works
        ? `hook command: works (runs ${hookCommand.bin ?? 'handoff'}${hookCommand.version ? `, ${hookCommand.version}` : ''})\n`
        : `hook command: NOT WORKING here: ${hookCommand.problem}; the agents' hooks do nothing until git-handoff is installed (globally or as a devDependency) or 'handoff agent install' is run again\n`,
    );
  for (const [agent, d] of delivered) {
    const what =
      d.session === null
        ? 'no session of this repository found'
        : d.pinsArrived === true
          ? `every pin arrived in the latest session (${d.session})`
          : d.pinsArrived === false
            ? `PINS MISSING from the latest session (${d.session}): ${d.missingPins.join(', ')}`
            : `latest session ${d.session}${d.note ? `: ${d.note}` : ': no active pins to deliver'}`;
    ctx.stdout(`${agent.padEnd(10)} pins   ${what}\n`);
  }
  ctx.stdout(
    `last compaction handoff: ${compaction ? `${compaction.id} (${compaction.created}, ${compaction.file})` : 'none'}\n`,
  );
}
