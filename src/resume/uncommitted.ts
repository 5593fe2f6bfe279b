// What is uncommitted now among the files a handoff lists (since.ts says what became of
// each). Git's status of files that are all in the index rests on three things: HEAD's
// commit, the index, and the files themselves. Where each is known without git (HEAD's id
// from git's files, git/repo.ts; the stat data of every listed file, as git's index
// vouches for a file by its stat data; the index by its stat data, or else by the listed
// paths' own entries in it, git/index-file.ts), the answer is remembered in the one cache
// beside them, and a session start where none of them moved asks git one question fewer.
// A change of the index elsewhere (a `git add` of another file, the pre-commit hook
// staging the roadmap) leaves the listed paths' entries as they were: the answer holds.
// Not remembered: an answer about a file outside the index (git's ignore rules decide it
// too), a listed folder (what is inside it has stat data of its own), stat data too young
// to vouch for a change in the same clock tick (store/reader.ts, RACY_MS).
import path from 'node:path';
import type { Context } from '../command/context.js';
import type { Git } from '../git/git.js';
import { entriesIn } from '../git/index-file.js';
import { openCache } from '../store/cache.js';
import { vouchingStamp } from '../store/fs.js';
import { RACY_MS } from '../store/reader.js';
import { HANDOFF_DIR } from '../store/tree.js';

const key = (paths: readonly string[]) => `uncommitted\0${paths.join('\0')}`;

interface Known {
  /** HEAD, the index's stat data and the files'. */
  at?: string;
  /** HEAD, the listed paths' entries in the index and the files' stat data. */
  by?: string;
  paths: string[];
}

function asKnown(value: unknown): Known | undefined {
  const k = value as Partial<Known> | undefined;
  return k && Array.isArray(k.paths) && k.paths.every((p) => typeof p === 'string') ? (k as Known) : undefined;
}

/** The listed paths (repository-relative) that are not committed now: what git status says, or what it said for the same state. */
export async function uncommittedListed(
  ctx: Pick<Context, 'cacheFile' | 'root'>,
  git: Git,
  paths: readonly string[],
): Promise<string[]> {
  const racy = Date.now() - RACY_MS;
  const head = git.fixedHead();
  const index = git.indexStat();
  // Read before git is asked: a file changed while git answers no longer has the stat data
  // the answer is remembered beside.
  const files = head !== null && index !== null ? paths.map((p) => vouchingStamp(path.join(ctx.root, p), racy)) : [];
  if (head === null || index === null || files.includes(undefined)) return (await git.uncommittedAmong(paths)).paths;
  const cache = await openCache(ctx.cacheFile);
  const at = index[0] < racy ? JSON.stringify([head, index, ...files]) : undefined;
  const known = asKnown(cache.answers.get(key(paths)));
  if (at !== undefined && known?.at === at) return known.paths;
  // The index moved, or is too young for its stat data to vouch for it: its entries for these paths do.
  const data = git.indexData();
  const entries = data && entriesIn(data, paths, head.length / 2, `${HANDOFF_DIR}/`);
  const by = entries ? JSON.stringify([head, entries, ...files]) : undefined;
  if (by !== undefined && known?.by === by) {
    if (at !== undefined) {
      cache.answers.set(key(paths), { ...known, at });
      await cache.save();
    }
    return known.paths;
  }
  const answer = await git.uncommittedAmong(paths);
  if (!answer.outsideIndex && (at !== undefined || by !== undefined)) {
    cache.answers.set(key(paths), { at, by, paths: answer.paths });
    await cache.save();
  }
  return answer.paths;
}
