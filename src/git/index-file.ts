// The index's entries for a few paths, read from git's index file without starting git:
// besides HEAD's commit and the files themselves, they are all that `git status` of those
// paths rests on (resume/uncommitted.ts), so a change of the index elsewhere (a `git add`
// of another file, the pre-commit hook staging the roadmap) need not be asked about. The
// format is git's documented one (gitformat-index): a header, then the entries sorted by
// path, then extensions. Versions 2 and 3 only; for version 4 (paths compressed against
// the previous entry's), a split index (entries kept in another file: the `link`
// extension), a sparse one (folders standing for what is under them: `sdir`), or anything
// that does not read as the format, null, and the caller asks git.

// Taken, not imported: see store/fs.ts.
const { readFileSync } = process.getBuiltinModule('node:fs');

/** Bytes of an entry before its object id: ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;

/**
 * Each path's entries (every stage of a conflict), each as its bytes in hex (stat data,
 * object id, flags), in the order asked; a path not in the index has none. null when the
 * index cannot be read this way (see the top of this file).
 */
export function entriesIn(data: Buffer, paths: readonly string[], hashBytes: number): string[][] | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = data.readUInt32BE(8);
  const wanted = new Map(paths.map((p, i) => [Buffer.from(p, 'utf8').toString('latin1'), i]));
  const lengths = new Set([...wanted.keys()].map((p) => Math.min(p.length, NAME_MASK)));
  const found: string[][] = paths.map(() => []);
  // The hash's bytes end each entry's fixed part; the trailing checksum is one more hash.
  const end = data.length - hashBytes;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return null;
    const flags = data.readUInt16BE(flagsAt);
    const nameAt = flagsAt + (flags & EXTENDED ? 4 : 2);
    let length = flags & NAME_MASK;
    if (length === NAME_MASK) {
      const nul = data.indexOf(0, nameAt + NAME_MASK);
      if (nul < 0) return null;
      length = nul - nameAt;
    }
    // The entry ends with 1 to 8 NULs, so that its length is a multiple of eight.
    const next = nameAt + length + 8 - ((nameAt + length - at) % 8);
    if (next > end || data[nameAt + length] !== 0) return null;
    if (lengths.has(flags & NAME_MASK)) {
      const index = wanted.get(data.toString('latin1', nameAt, nameAt + length));
      if (index !== undefined) found[index]!.push(data.toString('hex', at, nameAt));
    }
    at = next;
  }
  // Extensions: a four-letter signature and a size each.
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return null;
    at += 8 + data.readUInt32BE(at + 4);
  }
  return at === end ? found : null;
}

/** entriesIn of the index file at `file`; null when it cannot be read. */
export function indexEntries(file: string, paths: readonly string[], hashBytes: number): string[][] | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return null;
  }
  return entriesIn(data, paths, hashBytes);
}
