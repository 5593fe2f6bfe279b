// A SQLite write-ahead log folded into its database, in memory: the pages of every frame
// up to the last valid commit replace the database's pages, as SQLite itself would do at a
// checkpoint. Frames are valid while their salts match the header and their cumulative
// checksums hold (https://www.sqlite.org/fileformat2.html#walformat). Pure: bytes in, bytes out.

const HEADER = 32;
const FRAME_HEADER = 24;

/** SQLite's WAL checksum over buf[start, end), continuing from (s0, s1). */
export function checksum(
  buf: Buffer,
  start: number,
  end: number,
  s0: number,
  s1: number,
  bigEndian: boolean,
): [number, number] {
  for (let i = start; i < end; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** The database as it is once the WAL's committed frames are applied; `db` unchanged when the WAL is not usable. */
export function foldWal(db: Buffer, wal: Buffer): Buffer {
  if (wal.length < HEADER) return db;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return db;
  const bigEndian = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8) === 1 ? 65536 : wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let [s0, s1] = checksum(wal, 0, 24, 0, 0, bigEndian);
  if (s0 !== wal.readUInt32BE(24) || s1 !== wal.readUInt32BE(28)) return db;
  const pages = new Map<number, Buffer>();
  let pending = new Map<number, Buffer>();
  let size = 0;
  for (let at = HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    [s0, s1] = checksum(wal, at, at + 8, s0, s1, bigEndian);
    [s0, s1] = checksum(wal, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, s0, s1, bigEndian);
    if (s0 !== wal.readUInt32BE(at + 16) || s1 !== wal.readUInt32BE(at + 20)) break;
    pending.set(wal.readUInt32BE(at), wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize));
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize > 0) {
      for (const [n, page] of pending) pages.set(n, page);
      pending = new Map();
      size = commitSize;
    }
  }
  if (size === 0) return db;
  const out = Buffer.alloc(size * pageSize);
  db.copy(out, 0, 0, Math.min(db.length, out.length));
  for (const [n, page] of pages) if (n >= 1 && n <= size) page.copy(out, (n - 1) * pageSize);
  // Read and write versions 1 (rollback journal): the copy has no WAL of its own.
  out[18] = 1;
  out[19] = 1;
  return out;
}
