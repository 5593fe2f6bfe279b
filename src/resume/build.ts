// The resume prompt and its parts, shared by `handoff resume` and the agents'
// session-start hooks: the newest open handoff on the branch (or the one asked for), what
// git says happened since, the pins in play, redacted on the way out.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';
import type { Handoff } from '../store/handoff.js';
import { activePins, pinsInPlay } from '../store/pin-scope.js';
import { handoffParts, pinsOnlyParts, promptPins, renderPinsOnly, renderResume, type ResumeParts } from './prompt.js';
import { bounded, sinceFacts, type SinceFacts } from './since.js';
import { history } from './history.js';
import { uncommittedListed } from './uncommitted.js';
import { changedSince } from './changed-since.js';
import { RULES, scrubRemembered } from '../security/remembered.js';
import { openClean } from '../store/clean.js';
import { present } from '../store/fs.js';
import type { Git } from '../git/git.js';
import { findItem, findOpenOnBranch, loadHandoffs, loadOpen, loadPins, warnProblems } from '../store/store.js';
import { itemKind, type Problem } from '../store/tree.js';
import { readTemplate } from '../store/templates.js';
import type { Within } from './time-budget.js';
import { provenanceNote, whoseHandoff } from './provenance.js';
import { estimateTokens } from '../transcripts/tokens.js';
import { lastFacts, madeFrom, mayBeKept, recalled, remember, type Made } from './snapshot.js';

const SHOWN_COMMITS = 20;
/** Paths passed to one git command at most (Windows allows 32,767 characters in a command line). */
const PATHS_ASKED = 100;

async function gatherSince(ctx: Context, git: Git, handoff: Handoff): Promise<SinceFacts> {
  const head = handoff.meta.head;
  const listed = handoff.meta.files.filter((f) => f.change !== 'deleted').map((f) => f.path);
  const missingFiles = () => listed.filter((p) => !present(path.join(ctx.root, p)));
  const notFound = (missing: string[]): SinceFacts => ({
    head,
    headFound: false,
    commits: [],
    commitCount: 0,
    changedFiles: [],
    stillUncommitted: [],
    missingFiles: missing,
  });
  if (!head) return notFound(missingFiles());
  // Before anything else: each is a git process, and this runs at every agent session
  // start. The two questions of the work tree are waited for in this thread (git.ts,
  // runBlocking); the history's, when it has any, answer while the caller prepares the
  // rest of the prompt.
  // What became of a listed file (committed, renamed, put back) needs the commits'
  // changes and what is uncommitted now: a handoff that lists no file asks for neither,
  // and what is uncommitted is asked of the listed paths alone (sinceFacts looks at no
  // other), unless they are too many for one command line. The commits, and what they
  // changed, are remembered under the two commit ids (history.ts), and what is
  // uncommitted under the stat data it rests on (uncommitted.ts), and what differs from
  // the handoff's commit likewise (changed-since.ts): where nothing of the work moved, a
  // session start asks git nothing.
  const paths = handoff.meta.files.map((f) => f.path);
  const lists = paths.length > 0;
  const answers = Promise.all([
    history(ctx, git, head, paths, SHOWN_COMMITS),
    changedSince(ctx, git, head).catch(() => []),
    !lists
      ? []
      : (paths.length <= PATHS_ASKED ? uncommittedListed(ctx, git, paths) : git.uncommittedPaths()).catch(() => []),
  ]);
  const missing = missingFiles();
  const [work, differing, uncommittedNow] = await answers;
  // No answer from the log: either the handoff's commit is gone, or there is no HEAD yet
  // (then it is found, with no commits since). Rare, so asked only then.
  if (work === null && (await git.resolveCommit(head)) === null) return notFound(missing);
  return sinceFacts(handoff.meta.files, {
    head,
    commits: work?.commits ?? [],
    commitCount: work?.count ?? 0,
    differing,
    committed: work?.committed ?? [],
    uncommittedNow,
    missing,
  });
}

export interface Resume {
  prompt: string;
  /** The kind of each secret redacted from the prompt. */
  redacted: string[];
  /** Every part, redacted as the prompt is. */
  parts: ResumeParts;
  /** The handoff and pin files that could not be read (each warned about on stderr). */
  skipped?: Problem[];
}

/**
 * Neither an open handoff on the branch nor a pin: nothing to resume. Its own class so that
 * `resume --json` can still print every key, with the reason, and the files it could not read.
 */
export class NothingToResume extends HandoffError {
  constructor(
    message: string,
    readonly skipped: readonly Problem[],
  ) {
    super(message);
    this.name = 'NothingToResume';
  }
}

/**
 * The resume prompt and its parts, shared with the agent session-start hooks. Handoff
 * files can be written by hand or by older versions, so secrets are redacted on the way
 * out too, unless the user asked to see them.
 */
export async function buildResume(
  ctx: Context,
  query: string | undefined,
  allowSecret = false,
  budget?: Within,
): Promise<Resume> {
  const git = await ctx.git();
  // A session start reads the pins and the open handoffs only (store/open-index.ts); an id asked for, everything.
  const [branch, pins] = await Promise.all([
    query === undefined ? git.branch() : null,
    query === undefined
      ? loadOpen(ctx).then((t) => ({ items: t.pins, problems: t.problems.filter((p) => itemKind(p.file) === 'pin') }))
      : loadPins(ctx),
  ]);
  let handoff: Handoff | undefined;
  let problems: Problem[];
  if (query !== undefined) {
    const all = await loadHandoffs(ctx);
    handoff = await findItem(ctx, all.items, query, 'handoff', all.problems);
    problems = all.problems;
  } else {
    const newest = await findOpenOnBranch(ctx, branch);
    problems = newest.problems;
    handoff = newest.found;
    if (!handoff) {
      const open = (await loadOpen(ctx)).handoffs.length;
      warnProblems(ctx, problems);
      const unreadable =
        problems.length > 0
          ? `; ${problems.length} handoff file${problems.length === 1 ? '' : 's'} could not be read (see above): fix ${problems.length === 1 ? 'it' : 'them'} before writing a new one`
          : '';
      const where = branch ? `branch '${branch}'` : 'this detached HEAD';
      const active = activePins(pins.items);
      // The pins are the most important thing carried: they reach a session with no handoff too.
      if (active.length > 0 || pins.problems.length > 0) {
        warnProblems(ctx, pins.problems);
        const elsewhere = unreadable
          ? unreadable.replace(/ \(see above\)/, '')
          : open
            ? `; ${open} open elsewhere (handoff list --status open; handoff resume <id>)`
            : '';
        const parts = pinsOnlyParts(active, `no open handoff on ${where}${elsewhere}`);
        const rendered = renderPinsOnly(await readTemplate('resume-pins.md'), parts, pinNotes(pins.problems));
        return {
          ...(await finish(ctx, rendered, parts, allowSecret, budget)),
          skipped: [...problems, ...pins.problems],
        };
      }
      throw new NothingToResume(
        `no open handoff on ${where}${unreadable || (open ? ` (${open} open elsewhere: handoff list --status open; handoff resume <id>)` : '; write one with handoff new "<goal>"')}`,
        problems,
      );
    }
  }
  const skipped = [...problems, ...pins.problems];
  warnProblems(ctx, skipped);
  const template = await readTemplate('resume.md');
  // Git answers in other processes while the handoff's own parts are prepared here.
  const asked = gatherSince(ctx, git, handoff);
  asked.catch(() => {}); // awaited below: should handoffParts throw, its failure is still handled
  const whose = whoseHandoff(ctx, git, handoff.file);
  whose.catch(() => {});
  const since = await asked;
  const from = await whose;
  // The same handoff, pins and answers from git as last time: the same prompt (snapshot.ts).
  const made =
    allowSecret || !mayBeKept(since)
      ? ''
      : madeFrom(ctx, { handoff, pins: pins.items, pinProblems: pins.problems, since, from });
  const again = made ? recalled(ctx, made) : undefined;
  if (again) return { ...again, redacted: [], skipped };
  const done = await render(
    ctx,
    template,
    { handoff, pins: pins.items, pinProblems: pins.problems, since, from },
    made,
    allowSecret,
    budget,
  );
  return { ...done, skipped };
}

/** The prompt made from `m` and redacted, remembered under `made` (when not empty) if nothing was redacted. */
async function render(
  ctx: Context,
  template: string,
  m: Made,
  made: string,
  allowSecret: boolean,
  budget?: Within,
): Promise<Resume> {
  const { handoff, since, from } = m;
  const own = handoffParts(handoff);
  const inPlay = [...handoff.meta.files.map((f) => f.path), ...since.changedFiles];
  const parts: ResumeParts = {
    ...own,
    pins: promptPins(await pinsInPlay(activePins(m.pins), inPlay)),
    since: bounded(since),
    ...(from ? { from } : {}),
  };
  // Said in the prompt itself, not only on stderr: the agent reading it must know.
  const notes: string[] = from ? [provenanceNote(from)] : [];
  if (handoff.meta.status !== 'open') {
    notes.push(
      `Note: this handoff is ${handoff.meta.status === 'done' ? 'marked done' : `superseded${handoff.meta.superseded_by ? ` by ${handoff.meta.superseded_by}` : ''}`}; its work may be finished or continued elsewhere.`,
    );
  }
  notes.push(...pinNotes(m.pinProblems));
  const rendered = renderResume(template, parts, { tokens: ctx.config.resume_tokens, count: estimateTokens });
  const done = await finish(
    ctx,
    notes.length > 0 ? `${notes.join('\n')}\n\n${rendered}` : rendered,
    parts,
    allowSecret,
    budget,
  );
  if (made && done.redacted.length === 0) await remember(ctx, handoff, made, done.prompt, done.parts);
  return done;
}

/**
 * Makes and remembers, ahead of the next session start, the prompt it would make for the
 * branch's open handoff as the work tree has it now, taking what git said happened since
 * from that handoff's last remembered prompt instead of asking git again (the pre-commit
 * hook: in a large repository git's answers about the work tree cost more than the whole
 * hook). What is remembered is keyed by all it was made from (snapshot.ts), git's answers
 * included: a session start whose answers differ (the commit changed work, not only
 * .handoff/) makes its own. Nothing when no prompt of that handoff is remembered.
 */
export async function readyResume(ctx: Context, budget: Within): Promise<void> {
  const git = await ctx.git();
  const [branch, open] = await Promise.all([git.branch(), loadOpen(ctx)]);
  const handoff = (await findOpenOnBranch(ctx, branch)).found;
  const last = handoff && lastFacts(ctx, handoff.file);
  if (!handoff || !last || !handoff.meta.head || last.since.head !== handoff.meta.head || !mayBeKept(last.since))
    return;
  const m: Made = {
    handoff,
    pins: open.pins,
    pinProblems: open.problems.filter((p) => itemKind(p.file) === 'pin'),
    since: last.since,
    from: last.from,
  };
  const made = madeFrom(ctx, m);
  if (recalled(ctx, made)) return;
  await render(ctx, await readTemplate('resume.md'), m, made, false, budget);
}

function pinNotes(problems: readonly Problem[]): string[] {
  if (problems.length === 0) return [];
  return [
    `Warning: ${problems.length} pinned constraint file${problems.length === 1 ? '' : 's'} could not be read and ${problems.length === 1 ? 'is' : 'are'} missing below; ask the user before you rely on the pins (${problems.map((p) => `${p.file}: ${p.message}`).join('; ')}).`,
  ];
}

// The prompt and its parts are redacted together, and a prompt found clean before is not
// redacted again (security/remembered.ts): an unchanged repository gives the same prompt
// at every session start.
async function finish(
  ctx: Context,
  prompt: string,
  parts: ResumeParts,
  allowSecret: boolean,
  budget?: Within,
): Promise<Resume> {
  if (allowSecret) return { prompt, redacted: [], parts };
  const [scrubbed, scrubbedParts] = await scrubRemembered(
    [prompt, parts] as const,
    openClean(ctx.cacheFile, RULES),
    budget,
  );
  return { prompt: scrubbed.value, redacted: scrubbed.kinds, parts: scrubbedParts.value };
}
