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

/** Bytes of an entry before its object id: ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;

/** Calls `each` with every entry's start, where its name starts and its name's length; false when the data is not an index read so. */
function walk(data: Buffer, hashBytes: number, each: (at: number, nameAt: number, length: number) => boolean): boolean {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return false;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return false;
  const count = data.readUInt32BE(8);
  // The hash's bytes end each entry's fixed part; the trailing checksum is one more hash.
  const end = data.length - hashBytes;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return false;
    const flags = data.readUInt16BE(flagsAt);
    const nameAt = flagsAt + (flags & EXTENDED ? 4 : 2);
    let length = flags & NAME_MASK;
    if (length === NAME_MASK) {
      const nul = data.indexOf(0, nameAt + NAME_MASK);
      if (nul < 0) return false;
      length = nul - nameAt;
    }
    // The entry ends with 1 to 8 NULs, so that its length is a multiple of eight.
    const next = nameAt + length + 8 - ((nameAt + length - at) % 8);
    if (next > end || data[nameAt + length] !== 0) return false;
    if (!each(at, nameAt, length)) return false;
    at = next;
  }
  // Extensions: a four-letter signature and a size each.
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return false;
    at += 8 + data.readUInt32BE(at + 4);
  }
  return at === end;
}

/**
 * Each path's entries (every stage of a conflict), each as its bytes in hex (stat data,
 * object id, flags), in the order asked; a path not in the index has none. null when the
 * index cannot be read this way (see the top of this file).
 */
export function entriesIn(data: Buffer, paths: readonly string[], hashBytes: number): string[][] | null {
  const wanted = new Map(paths.map((p, i) => [Buffer.from(p, 'utf8').toString('latin1'), i]));
  const lengths = new Set([...wanted.keys()].map((p) => Math.min(p.length, NAME_MASK)));
  const found: string[][] = paths.map(() => []);
  const read = walk(data, hashBytes, (at, nameAt, length) => {
    if (lengths.has(Math.min(length, NAME_MASK))) {
      const index = wanted.get(data.toString('latin1', nameAt, nameAt + length));
      if (index !== undefined) found[index]!.push(data.toString('hex', at, nameAt));
    }
    return true;
  });
  return read ? found : null;
}

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
  const prefix = Buffer.from(outside, 'utf8');
  const inside = (nameAt: number, length: number) => {
    if (length < prefix.length) return false;
    for (let k = 0; k < prefix.length; k++) if (data[nameAt + k] !== prefix[k]) return false;
    return true;
  };
  const paths: string[] = [];
  const keys: string[] = [];
  const read = walk(data, hashBytes, (at, nameAt, length) => {
    if (inside(nameAt, length)) return true;
    if (paths.length === max || (data.readUInt32BE(at + MODE_AT) & 0o170000) === GITLINK) return false;
    paths.push(data.toString('utf8', nameAt, nameAt + length));
    keys.push(data.toString('hex', at + MODE_AT, at + MODE_AT + 4) + data.toString('hex', at + STAT_BYTES, nameAt));
    return true;
  });
  return read ? { paths, key: keys.join(' ') } : null;
}
