// The files `handoff agent install` writes steer every agent session: hook commands run at
// each session start, the OpenCode plugin and the pi extension run as code, the blocks are
// read as instructions. When a branch changes one, `check --base` compares it byte for byte
// with what install writes (agents/agent-plan.ts verifyAgent, the one definition): ours but
// different is an error; any other hook command the branch adds is a warning, since it runs
// on every developer's machine.
import path from 'node:path';
import type { Context } from '../command/context.js';
import type { Git } from '../git/git.js';
import { parseNameStatus } from '../git/git-output.js';
import type { Finding } from './rules.js';
import { AGENTS } from '../agents/agents.js';
import { verifyAgent, type PlanInput } from '../agents/agent-plan.js';
import { isOurCommand } from '../agents/hook-command.js';
import { listHooks, type FoundHook } from '../agents/hook-settings.js';
import { blockContent } from '../agents/pins-block.js';
import { readText } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { HandoffError } from '../core/errors.js';

const RULE = { hooks: 'agent-hooks', file: 'agent-file', block: 'agent-block' } as const;
const WHAT = {
  hooks: 'a hook of ours',
  file: 'this file of ours (it runs in every agent session)',
  block: 'the handoff block (agents read it as instructions)',
} as const;

const key = (f: FoundHook) => JSON.stringify([f.event, f.matcher ?? null, f.hook]);

/** Findings for the agent files the branch added or changed since base, read from the work tree. */
export async function agentFileFindings(ctx: Context, git: Git, base: string): Promise<Finding[]> {
  const files = [
    ...new Set(
      AGENTS.flatMap((a) => [a.settings?.file, a.block?.file, ...(a.files ?? []).map((f) => f.file)]).filter(
        (f): f is string => f !== undefined,
      ),
    ),
  ].sort();
  // One diff for all of them.
  const diff = await git.nameStatusSince(base, ...files.map((f) => `:(top,literal)${f}`));
  const changed = new Set(
    parseNameStatus(diff)
      .filter((c) => c.change === 'added' || c.change === 'modified')
      .map((c) => c.path),
  );
  if (changed.size === 0) return [];
  const texts = new Map<string, string | undefined>();
  for (const f of changed) texts.set(f, await readText(path.join(ctx.root, f)));
  const input = (withPins: string, without: string): PlanInput => ({
    read: (f) => texts.get(f),
    template: (t) => templates.get(t)!,
    block: (pins) => (pins ? withPins : without),
    meter: false,
  });
  const templates = new Map<string, string>();
  for (const a of AGENTS)
    for (const f of a.files ?? []) if (f.template) templates.set(f.template, await readTemplate(f.template));
  const plan = input(await blockContent(ctx, true), await blockContent(ctx, false));

  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const agent of AGENTS) {
    let verified: ReturnType<typeof verifyAgent>;
    try {
      verified = verifyAgent(agent, plan);
    } catch (error) {
      if (!(error instanceof HandoffError)) throw error;
      const file = [...changed].find((f) => error.message.startsWith(`${f}: `)) ?? agent.settings?.file ?? '';
      if (!seen.has(`${file}\0error`))
        findings.push({ level: 'error', file, rule: 'agent-files', message: error.message.slice(file.length + 2) });
      seen.add(`${file}\0error`);
      continue;
    }
    for (const v of verified) {
      if (!changed.has(v.file) || v.state !== 'modified' || seen.has(`${v.file}\0${v.kind}`)) continue;
      seen.add(`${v.file}\0${v.kind}`);
      const events = v.kind === 'hooks' && v.modified.length > 0 ? ` (${v.modified.join(', ')})` : '';
      findings.push({
        level: 'error',
        file: v.file,
        rule: RULE[v.kind],
        message: `${WHAT[v.kind]}${events} differs from what 'handoff agent install' writes; run 'handoff agent install ${agent.name}' to restore it`,
      });
    }
    const settings = agent.settings?.file;
    if (!settings || !changed.has(settings) || seen.has(`${settings}\0foreign`)) continue;
    seen.add(`${settings}\0foreign`);
    let before: FoundHook[] = [];
    try {
      const old = (await git.readObjects([`${base}:${settings}`])).get(`${base}:${settings}`);
      before = listHooks(old, settings);
    } catch {
      // unreadable at base: every hook is new
    }
    const had = new Set(before.map(key));
    let now: FoundHook[] = [];
    try {
      now = listHooks(texts.get(settings), settings);
    } catch {
      continue; // reported above
    }
    for (const h of now) {
      const command = typeof h.hook.command === 'string' ? h.hook.command : JSON.stringify(h.hook.command ?? null);
      if (isOurCommand(command) || had.has(key(h))) continue;
      findings.push({
        level: 'warning',
        file: settings,
        rule: RULE.hooks,
        message: `adds the hook ${h.event}: ${JSON.stringify(command)}: it runs on every developer's machine at each agent session, so read it closely before merging`,
      });
    }
  }
  return findings;
}
