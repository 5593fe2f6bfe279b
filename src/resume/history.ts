// What happened between a handoff's commit and HEAD: the commits of work, and (when the
// handoff lists files) what those commits changed. Both are git's answers about two
// commits, so where both are whole ids (git/repo.ts, fixedHead, says when HEAD's is) the
// answer is remembered in the one cache under the two ids. A commit never changes, so
// neither does the answer: a session start with no new commit runs two git processes
// fewer. What the work tree holds is never remembered; build.ts asks git for it each time.
import type { Context } from '../command/context.js';
import type { Commit, Git } from '../git/git.js';
import type { RawChange } from '../git/git-output.js';
import { COMMIT_ID } from '../git/repo.js';
import { openCache } from '../store/cache.js';
import { ours } from './since.js';

/** Answers naming more changed paths than this are not remembered: the cache is read at every session start. */
const CHANGES_KEPT = 1000;

export interface History {
  /** The newest commits of work, `shown` at most. */
  commits: Commit[];
  count: number;
  /** What the commits changed, renames detected: only when asked for, and git answered. */
  committed?: RawChange[];
}

/** The history from `since` to HEAD; null when git cannot answer (`since` is not here, or there is no HEAD yet). */
export async function history(
  ctx: Pick<Context, 'cacheFile'>,
  git: Git,
  since: string,
  withChanges: boolean,
  shown: number,
): Promise<History | null> {
  const tip = COMMIT_ID.test(since) ? git.fixedHead() : null;
  const opened = tip ? await openCache(ctx.cacheFile) : null;
  const key = `${since}..${tip}`;
  const known = opened ? asHistory(opened.answers.get(key)) : undefined;
  if (known && (known.committed || !withChanges)) return known;
  // Asked of the id read, not of HEAD: the answer remembered is the answer for that id.
  const upTo = tip ?? 'HEAD';
  const [log, committed] = await Promise.all([
    known ? null : git.workSince(since, upTo),
    withChanges ? git.changesBetween(since, upTo).catch(() => undefined) : undefined,
  ]);
  const work = known ?? (log && { commits: log.slice(0, shown), count: log.length });
  if (!work) return null;
  // Changes to handoff records are never said (since.ts), so never kept.
  const answer: History = committed ? { ...work, committed: committed.filter((c) => !ours(c.path)) } : work;
  // Too many changes to remember (a commit that adds a code base): the commits alone are,
  // so only what they changed is asked again.
  const kept = (answer.committed?.length ?? 0) <= CHANGES_KEPT ? answer : work;
  if (opened && (committed || !withChanges) && kept !== known) {
    opened.answers.set(key, kept);
    await opened.save();
  }
  return answer;
}

function asHistory(value: unknown): History | undefined {
  const h = value as Partial<History> | undefined;
  return h &&
    Array.isArray(h.commits) &&
    typeof h.count === 'number' &&
    (h.committed === undefined || Array.isArray(h.committed))
    ? (h as History)
    : undefined;
}
