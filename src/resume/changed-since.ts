// Which tracked files outside .handoff/ differ from a handoff's commit in the work tree
// (`git diff <commit>`, the question every session start asks), remembered. Git answers it
// from three things: the commit's tree (fixed by its whole id), the index's entries for
// those files (which files are tracked, and their object ids, modes and flags), and the
// files themselves, which it looks at by their stat data. Where the work files are few,
// all three are known without git: the index's entries read from its file
// (git/index-file.ts) and every work file's stat data (store/reader.ts's RACY_MS rule:
// none too young to vouch for a change in the same clock tick). The answer is then kept in
// the one cache under the commit, and a session start where none of them moved starts no
// git process for it. The index is read only when its own stat data moved: a commit, the
// pre-commit hook's staging or a `git add` of a handoff leave the work files' entries as
// they were. Not remembered: more work files than WORK_FILES (git looks at them in
// parallel, sooner than we could, and the list would be read at every session start), a
// submodule (what its diff says lives in its own repository), an index git keeps in
// another form (index-file.ts). The entries and the stat data are kept, and compared, in a
// shorter form that tells apart all that the long one does (compactEntries, stampsOf): a
// thousand files' were the cache's largest answer, and every session start reads it.
import path from 'node:path';
import type { Context } from '../command/context.js';
import type { Git } from '../git/git.js';
import { entriesOutside } from '../git/index-file.js';
import { COMMIT_ID } from '../git/repo.js';
import { openCache } from '../store/cache.js';
import { type Stamp, vouchingStamp } from '../store/fs.js';
import { digit, digitOf } from '../store/cache-meta.js';
import { packTime } from '../store/open-pack.js';
import { RACY_MS } from '../store/reader.js';
import { HANDOFF_DIR } from '../store/tree.js';

/** Work files (tracked, outside .handoff/) beyond which git is asked every time. */
const WORK_FILES = 1000;

interface Known {
  /** The index's stat data when it vouched for the entries; absent when it was too young to. */
  index?: string;
  /** The work files' entries (entriesOutside's key, compactEntries), their paths (packPaths), and each file's stat data (stampsOf). */
  entries: string;
  files: string[];
  stamps: string;
  /** git's answer. */
  paths: string[];
}

function asKnown(value: unknown): Known | undefined {
  const k = value as Partial<Known> | undefined;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');
  return k &&
    typeof k.entries === 'string' &&
    typeof k.stamps === 'string' &&
    strings(k.files) &&
    strings(k.paths) &&
    (k.index === undefined || typeof k.index === 'string')
    ? (k as Known)
    : undefined;
}

/**
 * Each file's stat data as one text; undefined when one cannot vouch for its file (a folder,
 * too young, unreadable). Each stamp after the one before (files checked out together share
 * most of their times and inode numbers): its ctime after that one's, its mtime after its
 * ctime and that one's difference between the two (packTime: exact; files checked out
 * together have none, files copied with their times kept about the same one), its size, its
 * inode number less that one's; null for no file. The stamps can be read back from it one
 * after another, so two lists of stamps never give the same text.
 */
export function stampsText(stamps: readonly (Stamp | null)[]): string {
  let c = 0;
  let skew = 0;
  let ino = 0;
  const rows: unknown[] = [];
  for (const s of stamps) {
    if (s === null) {
      rows.push(null);
      continue;
    }
    rows.push([packTime(s[0], c), packTime(s[1], s[0] + skew), s[2], s[3] - ino]);
    c = s[0];
    skew = s[1] - s[0];
    ino = s[3];
  }
  return JSON.stringify(rows);
}

function stampsOf(root: string, files: readonly string[], racy: number): string | undefined {
  const stamps: (Stamp | null)[] = [];
  for (const f of files) {
    const stamp = vouchingStamp(`${root}/${f}`, racy);
    if (stamp === undefined) return undefined;
    stamps.push(stamp);
  }
  return stampsText(stamps);
}

/** An entry's mode and flags as most files have them: a regular file's, and its name's length alone. */
const PLAIN_MODE = '000081a4';
const plainFlags = (p: string) => Math.min(Buffer.byteLength(p), 0xfff).toString(16).padStart(4, '0');

/**
 * The index entries' key (entriesOutside) in base 64 where it is hexadecimal, token by token
 * (a token kept as it is, after a `=`, where it is not): the same tokens, shorter; of an
 * entry with PLAIN_MODE and its path's plain flags (`paths`, in the key's order), its object
 * id alone, after a `-`.
 */
export function compactEntries(key: string, paths: readonly string[]): string {
  return key
    .split(' ')
    .map((t, i) => {
      if (!/^(?:[0-9a-f]{2})+$/.test(t)) return `=${t}`;
      const id = t.slice(PLAIN_MODE.length, -4);
      const plain =
        (id.length === 40 || id.length === 64) &&
        t.startsWith(PLAIN_MODE) &&
        paths[i] !== undefined &&
        t.endsWith(plainFlags(paths[i]));
      return plain
        ? `-${Buffer.from(id, 'hex').toString('base64').replace(/=+$/, '')}`
        : Buffer.from(t, 'hex').toString('base64');
    })
    .join(' ');
}

/** The work files' paths as kept: each after what it shares with the one before (a base-91 digit, then the rest). */
export function packPaths(paths: readonly string[]): string[] {
  let previous = '';
  return paths.map((p) => {
    let n = 0;
    const max = Math.min(p.length, previous.length, MAX_SHARED);
    while (n < max && p.charCodeAt(n) === previous.charCodeAt(n)) n++;
    previous = p;
    return digit(n) + p.slice(n);
  });
}

export function unpackPaths(stored: readonly string[]): string[] {
  let previous = '';
  return stored.map((s) => (previous = previous.slice(0, digitOf(s.charCodeAt(0))) + s.slice(1)));
}

/** The most characters a path is said to share with the one before: one digit's worth. */
const MAX_SHARED = 90;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/** Tracked paths outside .handoff/ that differ between `since` and the work tree: git's answer, or the one it gave for the same state. */
export async function changedSince(
  ctx: Pick<Context, 'cacheFile' | 'root'>,
  git: Git,
  since: string,
): Promise<string[]> {
  const index = git.indexStat();
  // A whole id, and no replaced objects or grafts (fixedHead says when): the commit's tree is fixed.
  const fixed = COMMIT_ID.test(since) && git.fixedHead() !== null;
  if (!fixed || index === null || !ctx.cacheFile) return git.pathsChangedSince(since);
  const racy = Date.now() - RACY_MS;
  const root = path.resolve(ctx.root);
  const indexKey = index[0] < racy ? JSON.stringify(index) : undefined;
  const cache = await openCache(ctx.cacheFile);
  const key = `work\0${since}`;
  const value = cache.answers.get(key) as { none?: unknown; index?: unknown } | undefined;
  // Too many work files, or a submodule, the last time this index was read: git is asked, and the index not read again.
  if (indexKey !== undefined && value?.none === true && value.index === indexKey) return git.pathsChangedSince(since);
  const known = asKnown(value);
  const hashBytes = since.length / 2;
  let work: { paths: string[]; key: string } | null | undefined;
  const files = known && unpackPaths(known.files);
  if (known && files && stampsOf(root, files, racy) === known.stamps) {
    if (indexKey !== undefined && known.index === indexKey) return known.paths;
    // The index moved: the work files' entries in it may not have.
    const data = git.indexData();
    work = data && entriesOutside(data, `${HANDOFF_DIR}/`, WORK_FILES, hashBytes);
    if (work && sameList(work.paths, files) && compactEntries(work.key, work.paths) === known.entries) {
      if (indexKey !== undefined) {
        cache.answers.set(key, { ...known, index: indexKey });
        await cache.save();
      }
      return known.paths;
    }
  }
  // Read before git is asked: a file changed while git answers no longer has the stat data
  // the answer is remembered beside.
  if (work === undefined) {
    const data = git.indexData();
    work = data && entriesOutside(data, `${HANDOFF_DIR}/`, WORK_FILES, hashBytes);
  }
  const stamps = work ? stampsOf(root, work.paths, racy) : undefined;
  const answer = await git.pathsChangedSince(since);
  if (work && stamps !== undefined) {
    const kept: Known = {
      index: indexKey,
      entries: compactEntries(work.key, work.paths),
      files: packPaths(work.paths),
      stamps,
      paths: answer,
    };
    cache.answers.set(key, kept);
    await cache.save();
  } else if (work === null && indexKey !== undefined) {
    cache.answers.set(key, { index: indexKey, none: true });
    await cache.save();
  }
  return answer;
}
