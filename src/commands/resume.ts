import path from 'node:path';
import type { Args } from './spec.js';
import type { Context } from '../context.js';
import { HandoffError } from '../errors.js';
import type { Handoff } from '../core/handoff.js';
import { activePins } from '../core/pin.js';
import { renderResume, resumeParts, type SinceFacts } from '../core/resume.js';
import { pinsInPlay } from '../core/scope.js';
import { redactionNotice, scrub } from '../core/secrets.js';
import { exists } from '../io/fs.js';
import type { Git } from '../io/git.js';
import { findById, loadHandoffs, loadPins, warnProblems } from '../io/store.js';
import { readTemplate } from '../io/templates.js';
import { newestOpenOnBranch, printJson } from './output.js';

const SHOWN_COMMITS = 20;

async function sinceFacts(ctx: Context, git: Git, handoff: Handoff): Promise<SinceFacts> {
  const head = handoff.meta.head;
  const listed = handoff.meta.files.filter((f) => f.change !== 'deleted').map((f) => f.path);
  const missing = (await Promise.all(listed.map(async (p) => ((await exists(path.join(ctx.root, p))) ? null : p)))).filter((p): p is string => p !== null);
  const headFound = head !== null && (await git.resolveCommit(head)) !== null;
  if (!head || !headFound) return { head, headFound, commits: [], commitCount: 0, changedFiles: [], missingFiles: missing };
  const [commits, commitCount, changedFiles] = await Promise.all([git.commitsSince(head, SHOWN_COMMITS), git.countCommitsSince(head), git.pathsChangedSince(head)]);
  return { head, headFound, commits, commitCount, changedFiles: changedFiles.filter((p) => !p.startsWith('.handoff/')), missingFiles: missing };
}

export async function run(ctx: Context, args: Args): Promise<number> {
  const git = await ctx.git();
  const [{ items: handoffs, problems }, pins] = await Promise.all([loadHandoffs(ctx), loadPins(ctx)]);
  // Before choosing: a skipped file may be the very handoff the user expected.
  warnProblems(ctx, [...problems, ...pins.problems]);
  const query = args.positionals[0];
  let handoff: Handoff | undefined;
  if (query !== undefined) {
    handoff = findById(handoffs, query, 'handoff', problems);
  } else {
    const branch = await git.branch();
    handoff = newestOpenOnBranch(handoffs, branch);
    if (!handoff) {
      const open = handoffs.filter((h) => h.meta.status === 'open').length;
      throw new HandoffError(
        `no open handoff on ${branch ? `branch '${branch}'` : 'this detached HEAD'}${open ? ` (${open} open elsewhere: handoff list --status open; handoff resume <id>)` : '; write one with handoff new "<goal>"'}`,
      );
    }
  }
  const since = await sinceFacts(ctx, git, handoff);
  const inPlay = [...handoff.meta.files.map((f) => f.path), ...since.changedFiles];
  const parts = resumeParts(handoff, await pinsInPlay(activePins(pins.items), inPlay), since);
  const raw = { prompt: renderResume(await readTemplate('resume.md'), parts), ...parts };
  // Handoff files can be written by hand or by older versions: redact on the way out too.
  const out = args.values['allow-secret'] === true ? { value: raw, kinds: [] } : scrub(raw);
  const notice = redactionNotice(args.values.json ? out.kinds : scrub(raw.prompt).kinds, 'the resume prompt', 'handoff resume --allow-secret prints them');
  if (notice) ctx.stderr(notice);
  if (args.values.json) printJson(ctx, out.value);
  else ctx.stdout(out.value.prompt);
  return 0;
}
