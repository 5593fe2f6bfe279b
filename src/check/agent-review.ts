// The files `handoff agent install` writes steer every agent session: hook commands run at
// each session start, the OpenCode plugin and the pi extension run as code, the blocks are
// read as instructions. A pull request that changes them is reviewed here: a hook command
// that names handoff, a file of ours or our block that differs from what `agent install`
// writes is an error; any other hook command the branch adds is a warning (it runs on every
// developer's machine). Compared against AGENTS (agents.ts), the one list of what install writes.
import path from 'node:path';
import type { Context } from '../command/context.js';
import type { Git } from '../git/git.js';
import type { Finding } from './rules.js';
import { AGENTS } from '../agents/agents.js';
import { allHooks, type HookEntry } from '../agents/hook-settings.js';
import { upsertBlock, hasBlock } from '../agents/marked-block.js';
import { blockContent } from '../agents/pins-block.js';
import { readText } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { HandoffError } from '../core/errors.js';

const same = (a: HookEntry, b: HookEntry) =>
  a.event === b.event && a.command === b.command && a.matcher === b.matcher && a.timeout === b.timeout;

const hookText = (h: HookEntry) => `${h.event}${h.matcher ? ` (${h.matcher})` : ''}: ${JSON.stringify(h.command)}`;

/** Findings for the agent files the branch changed since base, read from the work tree. */
export async function agentFileFindings(ctx: Context, git: Git, base: string): Promise<Finding[]> {
  const settings = new Map<string, HookEntry[]>();
  const blocks = new Map<string, boolean>();
  const owned = new Map<string, string>();
  for (const a of AGENTS) {
    if (a.settings)
      settings.set(a.settings.file, [
        ...(settings.get(a.settings.file) ?? []),
        ...a.settings.hooks,
        ...(a.settings.meter ?? []),
      ]);
    if (a.block) blocks.set(a.block.file, (blocks.get(a.block.file) ?? false) || a.block.pins === true);
    for (const f of a.files ?? []) owned.set(f.file, f.template);
  }
  const files = [...new Set([...settings.keys(), ...blocks.keys(), ...owned.keys()])];
  const changed = new Set<string>();
  await Promise.all(
    files.map(async (f) => {
      const out = await git.nameStatusSince(base, `:(top,literal)${f}`);
      if (out.split('\0')[0] === 'A' || out.split('\0')[0] === 'M') changed.add(f);
    }),
  );
  const findings: Finding[] = [];
  const error = (file: string, rule: string, message: string) => findings.push({ level: 'error', file, rule, message });
  for (const file of [...changed].sort()) {
    const text = await readText(path.join(ctx.root, file));
    if (text === undefined) continue;
    const ours = settings.get(file);
    if (ours) {
      let hooks: HookEntry[];
      try {
        hooks = allHooks(text, file);
      } catch (e) {
        if (!(e instanceof HandoffError)) throw e;
        error(file, 'agent-hooks', e.message.replace(`${file}: `, ''));
        continue;
      }
      let before: HookEntry[] = [];
      const old = (await git.readObjects([`${base}:${file}`])).get(`${base}:${file}`);
      try {
        before = old === undefined ? [] : allHooks(old, file);
      } catch {
        // unreadable at base: every hook is new
      }
      for (const h of hooks) {
        if (/\bhandoff\b/.test(h.command)) {
          if (!ours.some((o) => same(o, h)))
            error(
              file,
              'agent-hooks',
              `hook ${hookText(h)} names handoff but is not what 'handoff agent install' writes; run 'handoff agent install' to restore it`,
            );
        } else if (!before.some((b) => same(b, h))) {
          findings.push({
            level: 'warning',
            file,
            rule: 'agent-hooks',
            message: `adds the hook ${hookText(h)}: it runs on every developer's machine at each agent session, so read it closely before merging`,
          });
        }
      }
    }
    const template = owned.get(file);
    if (template !== undefined && text !== (await readTemplate(template)))
      error(
        file,
        'agent-file',
        `differs from what 'handoff agent install' writes (it runs in every agent session); run 'handoff agent install' to restore it`,
      );
    if (blocks.has(file)) {
      try {
        if (hasBlock(text, file) && upsertBlock(text, await blockContent(ctx, blocks.get(file)!), file).text !== text)
          error(
            file,
            'agent-block',
            `the handoff block differs from what 'handoff agent install' writes (agents read it as instructions); run 'handoff agent install' to restore it`,
          );
      } catch (e) {
        if (!(e instanceof HandoffError)) throw e;
        error(file, 'agent-block', e.message.replace(`${file}: `, ''));
      }
    }
  }
  return findings;
}
