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
  /**
   * When the commits changed too much to remember: the handoff's listed paths, `committed`
   * holding only the changes to them (or under a listed folder), all that since.ts asks.
   */
  narrowedTo?: string[];
}

/** The history from `since` to HEAD; null when git cannot answer (`since` is not here, or there is no HEAD yet). */
export async function history(
  ctx: Pick<Context, 'cacheFile'>,
  git: Git,
  since: string,
  listed: readonly string[],
  shown: number,
): Promise<History | null> {
  const withChanges = listed.length > 0;
  const tip = COMMIT_ID.test(since) ? git.fixedHead() : null;
  const opened = tip ? await openCache(ctx.cacheFile) : null;
  const key = `${since}..${tip}`;
  const known = opened ? asHistory(opened.answers.get(key)) : undefined;
  const fits = (h: History) =>
    h.committed !== undefined && (h.narrowedTo === undefined || h.narrowedTo.join('\0') === listed.join('\0'));
  if (known && (!withChanges || fits(known))) return known;
  // Asked of the id read, not of HEAD: the answer remembered is the answer for that id.
  const upTo = tip ?? 'HEAD';
  const [log, committed] = await Promise.all([
    known ? null : git.workSince(since, upTo),
    withChanges ? git.changesBetween(since, upTo).catch(() => undefined) : undefined,
  ]);
  const work = known
    ? { commits: known.commits, count: known.count }
    : log && { commits: log.slice(0, shown), count: log.length };
  if (!work) return null;
  // Changes to handoff records are never said (since.ts), so never kept.
  const answer: History = committed ? { ...work, committed: committed.filter((c) => !ours(c.path)) } : work;
  // Too many changes to remember (a commit that adds a code base): those to the listed
  // paths are, for these paths; when even they are too many, the commits alone.
  const kept = (answer.committed?.length ?? 0) <= CHANGES_KEPT ? answer : narrowed(work, answer.committed!, listed);
  if (opened && (committed || !withChanges) && JSON.stringify(kept) !== JSON.stringify(known)) {
    opened.answers.set(key, kept);
    await opened.save();
  }
  return answer;
}

function narrowed(work: History, committed: readonly RawChange[], listed: readonly string[]): History {
  const names = new Set(listed);
  const folders = listed.filter((p) => p.endsWith('/'));
  const touches = (p: string | undefined) => p !== undefined && (names.has(p) || folders.some((f) => p.startsWith(f)));
  const mine = committed.filter((c) => touches(c.path) || touches(c.from));
  return mine.length <= CHANGES_KEPT ? { ...work, committed: mine, narrowedTo: [...listed] } : work;
}

function asHistory(value: unknown): History | undefined {
  const h = value as Partial<History> | undefined;
  return h &&
    Array.isArray(h.commits) &&
    typeof h.count === 'number' &&
    (h.committed === undefined || Array.isArray(h.committed)) &&
    (h.narrowedTo === undefined || (Array.isArray(h.narrowedTo) && h.narrowedTo.every((p) => typeof p === 'string')))
    ? (h as History)
    : undefined;
}
