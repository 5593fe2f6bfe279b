import path from 'node:path';
import type { Args } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { HandoffError } from '../cli/errors.js';
import type { Handoff } from '../store/handoff.js';
import { activePins } from '../store/pin.js';
import { renderResume, resumeParts, type ResumeParts, type SinceFacts } from './prompt.js';
import { pinsInPlay } from '../pins/scope.js';
import { redactionNotice, scrub } from '../security/secrets.js';
import { exists } from '../store/fs.js';
import type { Git } from '../git/git.js';
import { findById, findOpenOnBranch, loadHandoffs, loadPins, loadSummaries, warnProblems } from '../store/store.js';
import { readTemplate } from '../store/templates.js';
import { printJson } from '../cli/output.js';

const SHOWN_COMMITS = 20;

async function sinceFacts(ctx: Context, git: Git, handoff: Handoff): Promise<SinceFacts> {
  const head = handoff.meta.head;
  const listed = handoff.meta.files.filter((f) => f.change !== 'deleted').map((f) => f.path);
  const missing = (await Promise.all(listed.map(async (p) => ((await exists(path.join(ctx.root, p))) ? null : p)))).filter((p): p is string => p !== null);
  if (!head) return { head, headFound: false, commits: [], commitCount: 0, changedFiles: [], stillUncommitted: [], missingFiles: missing };
  // All at once: each is a git process, and this runs at every agent session start.
  const [found, commits, commitCount, changedFiles] = await Promise.all([
    git.resolveCommit(head),
    git.commitsSince(head, SHOWN_COMMITS).catch(() => []),
    git.countCommitsSince(head),
    git.pathsChangedSince(head).catch(() => []),
  ]);
  const headFound = found !== null;
  if (!headFound) return { head, headFound, commits: [], commitCount: 0, changedFiles: [], stillUncommitted: [], missingFiles: missing };
  // Files already uncommitted when the handoff was written differ from its commit by
  // definition; they are reported apart, not as "changed since".
  const uncommitted = new Set(handoff.meta.files.filter((f) => f.state !== 'committed').map((f) => f.path));
  const differing = changedFiles.filter((p) => !p.startsWith('.handoff/'));
  return {
    head,
    headFound,
    commits,
    commitCount,
    changedFiles: differing.filter((p) => !uncommitted.has(p)),
    stillUncommitted: differing.filter((p) => uncommitted.has(p)),
    missingFiles: missing,
  };
}

export async function run(ctx: Context, args: Args): Promise<number> {
  const { prompt, parts, redacted } = await buildResume(ctx, args.positionals[0], args.values['allow-secret'] === true);
  const notice = redactionNotice(redacted, 'the resume prompt', 'handoff resume --allow-secret prints them');
  if (notice) ctx.stderr(notice);
  if (args.values.json) printJson(ctx, { prompt, ...parts });
  else ctx.stdout(prompt);
  return 0;
}

/**
 * The resume prompt and its parts, shared with the agent session-start hooks. Handoff
 * files can be written by hand or by older versions, so secrets are redacted on the way
 * out too, unless the user asked to see them.
 */
export async function buildResume(ctx: Context, query: string | undefined, allowSecret = false): Promise<{ prompt: string; parts: ResumeParts; redacted: string[] }> {
  const git = await ctx.git();
  const [branch, pins] = await Promise.all([query === undefined ? git.branch() : null, loadPins(ctx)]);
  let handoff: Handoff | undefined;
  let problems: string[];
  if (query !== undefined) {
    const all = await loadHandoffs(ctx);
    handoff = findById(all.items, query, 'handoff', all.problems);
    problems = all.problems;
  } else {
    const newest = await findOpenOnBranch(ctx, branch);
    problems = newest.problems;
    handoff = newest.found;
    if (!handoff) {
      const open = (await loadSummaries(ctx)).items.filter((h) => h.meta.status === 'open').length;
      warnProblems(ctx, problems);
      const unreadable = problems.length > 0 ? `; ${problems.length} handoff file${problems.length === 1 ? '' : 's'} could not be read (see above): fix ${problems.length === 1 ? 'it' : 'them'} before writing a new one` : '';
      throw new HandoffError(
        `no open handoff on ${branch ? `branch '${branch}'` : 'this detached HEAD'}${unreadable || (open ? ` (${open} open elsewhere: handoff list --status open; handoff resume <id>)` : '; write one with handoff new "<goal>"')}`,
      );
    }
  }
  warnProblems(ctx, [...problems, ...pins.problems]);
  const since = await sinceFacts(ctx, git, handoff);
  const inPlay = [...handoff.meta.files.map((f) => f.path), ...since.changedFiles];
  const parts = resumeParts(handoff, await pinsInPlay(activePins(pins.items), inPlay), since);
  // Said in the prompt itself, not only on stderr: the agent reading it must know.
  const notes: string[] = [];
  if (handoff.meta.status !== 'open') {
    notes.push(`Note: this handoff is ${handoff.meta.status === 'done' ? 'marked done' : `superseded${handoff.meta.superseded_by ? ` by ${handoff.meta.superseded_by}` : ''}`}; its work may be finished or continued elsewhere.`);
  }
  if (pins.problems.length > 0) {
    notes.push(`Warning: ${pins.problems.length} pinned constraint file${pins.problems.length === 1 ? '' : 's'} could not be read and ${pins.problems.length === 1 ? 'is' : 'are'} missing below; ask the user before you rely on the pins (${pins.problems.join('; ')}).`);
  }
  const rendered = renderResume(await readTemplate('resume.md'), parts);
  const prompt = notes.length > 0 ? `${notes.join('\n')}\n\n${rendered}` : rendered;
  if (allowSecret) return { prompt, parts, redacted: [] };
  const scrubbed = scrub(prompt);
  return { prompt: scrubbed.value, parts: scrub(parts).value, redacted: scrubbed.kinds };
}
