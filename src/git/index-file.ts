// Entries of git's index, read from its file (the git client reads it) without starting
// git, pure: besides the commits and the files themselves, they are all that `git status`
// of a few paths (resume/uncommitted.ts) or `git diff <commit>` of the work tree
// (resume/changed-since.ts) rest on, so a change of the index elsewhere (a `git add` of
// another file, the pre-commit hook staging the roadmap, a commit) need not be asked
// about. The format is git's documented one (gitformat-index): a header, then the entries
// sorted by path, then extensions. Versions 2 and 3 only; for version 4 (paths compressed
// against the previous entry's), a split index (entries kept in another file: the `link`
// extension), a sparse one (folders standing for what is under them: `sdir`), or anything
// that does not read as the format, null, and the caller asks git.
import type { IndexEntry } from './git-plumbing.js';

/** Bytes of an entry before its object id: ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;

/**
 * The entries whose names do not start with `skip`, as (entry start, name start, name
 * length) triples; null when the data is not an index read so. One pass, remembered for
 * the buffer: a session start asks two questions of the same index, and in a year's
 * history nearly every entry is a handoff's, under the one folder both skip. Written as
 * one loop over bytes, with no call per entry: it runs once a process, before the
 * compiler has seen it, over tens of thousands of entries.
 */
function scan(data: Buffer, hashBytes: number, skip: string): readonly number[] | null {
  const memo = `${hashBytes}\0${skip}`;
  let known = scanned.get(data);
  if (known?.has(memo)) return known.get(memo)!;
  const found = scanOnce(data, hashBytes, Buffer.from(skip, 'utf8'));
  if (!known) scanned.set(data, (known = new Map()));
  known.set(memo, found);
  return found;
}
const scanned = new WeakMap<Buffer, Map<string, readonly number[] | null>>();

function scanOnce(data: Buffer, hashBytes: number, skip: Buffer): number[] | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = data.readUInt32BE(8);
  // The hash's bytes end each entry's fixed part; the trailing checksum is one more hash.
  const end = data.length - hashBytes;
  const fixed = STAT_BYTES + hashBytes;
  const skipLength = skip.length;
  const out: number[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + fixed;
    if (flagsAt + 2 > end) return null;
    const flags = (data[flagsAt]! << 8) | data[flagsAt + 1]!;
    const nameAt = flagsAt + (flags & EXTENDED ? 4 : 2);
    let length = flags & NAME_MASK;
    if (length === NAME_MASK) {
      const nul = data.indexOf(0, nameAt + NAME_MASK);
      if (nul < 0) return null;
      length = nul - nameAt;
    }
    // The entry ends with 1 to 8 NULs, so that its length is a multiple of eight.
    const stop = nameAt + length;
    const next = stop + 8 - ((stop - at) % 8);
    if (next > end || data[stop] !== 0) return null;
    let k = 0;
    if (length >= skipLength) while (k < skipLength && data[nameAt + k] === skip[k]) k++;
    if (k < skipLength || skipLength === 0) out.push(at, nameAt, length);
    at = next;
  }
  // Extensions: a four-letter signature and a size each.
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return null;
    at += 8 + data.readUInt32BE(at + 4);
  }
  return at === end ? out : null;
}

/**
 * Each path's entries (every stage of a conflict), each as its bytes in hex (stat data,
 * object id, flags), in the order asked; a path not in the index has none. null when the
 * index cannot be read this way (see the top of this file). Entries under `skip` (a
 * folder, `dir/`) are not looked at unless a path asked for is under it.
 */
export function entriesIn(data: Buffer, paths: readonly string[], hashBytes: number, skip = ''): string[][] | null {
  const entries = scan(data, hashBytes, paths.some((p) => p.startsWith(skip)) ? '' : skip);
  if (!entries) return null;
  const wanted = new Map(paths.map((p, i) => [Buffer.from(p, 'utf8').toString('latin1'), i]));
  const lengths = new Set([...wanted.keys()].map((p) => p.length));
  const found: string[][] = paths.map(() => []);
  for (let e = 0; e < entries.length; e += 3) {
    const at = entries[e]!;
    const nameAt = entries[e + 1]!;
    const length = entries[e + 2]!;
    if (!lengths.has(length)) continue;
    const index = wanted.get(data.toString('latin1', nameAt, nameAt + length));
    if (index !== undefined) found[index]!.push(data.toString('hex', at, nameAt));
  }
  return found;
}

/**
 * The entries under `under` (a folder, `dir/`), as `git ls-files -s` lists them: mode, object
 * id, stage and path, in the index's order (by path). null when the index cannot be read
 * this way (see the top of this file).
 */
export function entriesUnder(data: Buffer, under: string, hashBytes: number): IndexEntry[] | null {
  const entries = scan(data, hashBytes, '');
  if (!entries) return null;
  // Read as one string, a byte a character, each path cut from it (decoded as UTF-8 only
  // where it holds other bytes than ASCII's): a call per entry into the buffer's decoder
  // cost most of a year's entries.
  const text = data.toString('latin1');
  const prefix = Buffer.from(under, 'utf8').toString('latin1');
  const modes = new Map<number, string>();
  const out: IndexEntry[] = [];
  for (let e = 0; e < entries.length; e += 3) {
    const at = entries[e]!;
    const nameAt = entries[e + 1]!;
    const length = entries[e + 2]!;
    if (length < prefix.length || !text.startsWith(prefix, nameAt)) continue;
    const name = text.slice(nameAt, nameAt + length);
    const bits = data.readUInt32BE(at + MODE_AT);
    let mode = modes.get(bits);
    if (mode === undefined) modes.set(bits, (mode = bits.toString(8).padStart(6, '0')));
    const idAt = at + STAT_BYTES;
    out.push({
      mode,
      id: data.toString('hex', idAt, idAt + hashBytes),
      stage: STAGES[(data[idAt + hashBytes]! >> 4) & 3]!,
      path: NOT_ASCII.test(name) ? data.toString('utf8', nameAt, nameAt + length) : name,
    });
  }
  return out;
}

const STAGES = ['0', '1', '2', '3'];
const NOT_ASCII = /[^\0-\x7f]/;

/** Git's mode for a submodule's commit: what decides its diff is in the submodule, not here. */
const GITLINK = 0o160000;
const MODE_AT = 24;

/**
 * The entries outside `outside` (a folder, `dir/`), at most `max`: their paths, and what
 * `git diff <commit>` of each rests on besides the file (mode, object id, flags: not the
 * stat data, which git refreshes and which only says whether to look at the file), as one
 * text. null when there are more, when one is a submodule's commit, or when the index
 * cannot be read this way.
 */
export function entriesOutside(
  data: Buffer,
  outside: string,
  max: number,
  hashBytes: number,
): { paths: string[]; key: string } | null {
  const entries = scan(data, hashBytes, outside);
  if (!entries || entries.length > max * 3) return null;
  const paths: string[] = [];
  const keys: string[] = [];
  for (let e = 0; e < entries.length; e += 3) {
    const at = entries[e]!;
    const nameAt = entries[e + 1]!;
    const length = entries[e + 2]!;
    if ((data.readUInt32BE(at + MODE_AT) & 0o170000) === GITLINK) return null;
    paths.push(data.toString('utf8', nameAt, nameAt + length));
    keys.push(data.toString('hex', at + MODE_AT, at + MODE_AT + 4) + data.toString('hex', at + STAT_BYTES, nameAt));
  }
  return { paths, key: keys.join(' ') };
}

/**
 * The tree ids git keeps in the index for folders whose entries have not changed since it
 * last wrote a tree (the cache-tree extension, `TREE`: each folder's name, how many entries
 * it covers, -1 when it is out of date, how many folders it holds, then its id when it is
 * not), for `under` (a folder, `dir`) and the folders inside it, by their path inside it
 * ('' for `under` itself). Empty when the index has no such extension; null when the index
 * cannot be read this way.
 */
export function cachedTreesUnder(data: Buffer, under: string, hashBytes: number): Map<string, string> | null {
  const entries = scan(data, hashBytes, '');
  if (!entries) return null;
  let at = 12;
  if (entries.length > 0) {
    const last = entries[entries.length - 3]!;
    const stop = entries[entries.length - 2]! + entries[entries.length - 1]!;
    at = stop + 8 - ((stop - last) % 8);
  }
  const end = data.length - hashBytes;
  while (at + 8 <= end && data.toString('latin1', at, at + 4) !== 'TREE') at += 8 + data.readUInt32BE(at + 4);
  const out = new Map<string, string>();
  if (at + 8 > end) return out;
  const stop = at + 8 + data.readUInt32BE(at + 4);
  let p = at + 8;
  const inside = `${under}/`;
  // Each folder, then the folders it holds, depth first.
  const folder = (parent: string | null): boolean => {
    const nul = data.indexOf(0, p);
    const lf = nul < 0 ? -1 : data.indexOf(10, nul);
    if (nul < 0 || lf < 0 || lf >= stop) return false;
    const name = data.toString('utf8', p, nul);
    const counts = /^(-?\d+) (\d+)$/.exec(data.toString('latin1', nul + 1, lf));
    if (!counts) return false;
    p = lf + 1;
    const full = parent === null ? '' : parent === '' ? name : `${parent}/${name}`;
    if (Number(counts[1]) >= 0) {
      if (p + hashBytes > stop) return false;
      if (full === under) out.set('', data.toString('hex', p, p + hashBytes));
      else if (full.startsWith(inside)) out.set(full.slice(inside.length), data.toString('hex', p, p + hashBytes));
      p += hashBytes;
    }
    for (let i = Number(counts[2]); i > 0; i--) if (!folder(full)) return false;
    return true;
  };
  return folder(null) && p === stop ? out : null;
}
