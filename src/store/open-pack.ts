// How handoff-open.json (open-index.ts) stores what it keeps: paths after `.handoff/handoffs/`, a
// change time as its difference from the file's first (see packTime), a modification time
// as its difference from the change time (a folder's are most often the same: 0), an inode
// number as its difference from the first (a checkout's are near one another). Each open
// handoff's front-matter is kept as the parser gave it: a session start reads every one
// (which is open on this branch), and unpacking them from a table of values, as the items
// cache does, cost more than their bytes; only its listed files are stored as arrays, their
// keys being most of an open handoff's bytes (see packFile), and a month's day folders within
// the month's entry, by their names. Pure; what does not read back is a miss.
import { HANDOFFS_PREFIX, type CachedItem } from './tree.js';

export type Stat = [ctimeMs: number, mtimeMs: number, size: number, ino: number];
/** A folder's stat data, and 1 when it must be listed again. */
export type DirStat = [ctimeMs: number, mtimeMs: number, ino: number, racy: number];
export interface Kept {
  st: Stat;
  item: CachedItem;
  /** A hash of the text (open-index.ts textHash), while the stat data is too young to vouch for it. */
  hash?: string;
}
export interface Open {
  dirs: Record<string, DirStat>;
  files: Record<string, Kept>;
}

type Packed = ReturnType<typeof packOpen>;

/** A path's key in the file: after `.handoff/handoffs/`, or the whole path after a `/` (no path starts with one). */
export const keyOf = (p: string) => (p.startsWith(HANDOFFS_PREFIX) ? p.slice(HANDOFFS_PREFIX.length) : `/${p}`);
const pathOf = (key: string) => (key.startsWith('/') ? key.slice(1) : HANDOFFS_PREFIX + key);

/**
 * A stat time as stored, after another (`from`): their difference, exact (two times of this
 * century are within a factor of two of each other), as a whole number of 1/4096 ms (a
 * double of this century has 12 bits under the millisecond, so it is one); the time itself
 * after a `=`, a string, when that is not so. `unpackTime(packTime(t, from), from)` is `t`
 * to the bit; a number, as JSON reads it, with no text to parse at each session start.
 */
export function packTime(t: number, from: number): string | number {
  const d = t - from;
  const units = d * 4096;
  return Number.isSafeInteger(units) && from + d === t ? units : `=${t}`;
}

/** A time packTime stored, or NaN (equal to no time: a miss) when it is not one. */
export function unpackTime(v: unknown, from: number): number {
  if (typeof v === 'number') return from + v / 4096;
  return typeof v === 'string' && v.startsWith('=') ? Number(v.slice(1)) : Number.NaN;
}

/** The time and the inode number the others are stored after: the first ones, or 0. */
function baseOf(open: Open): { base: number; ino: number } {
  const dir = Object.values(open.dirs)[0];
  if (dir) return { base: dir[0], ino: dir[2] };
  const file = Object.values(open.files)[0];
  return file ? { base: file.st[0], ino: file.st[3] } : { base: 0, ino: 0 };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A listed file's keys in the parser's order (handoff.ts validateFile), and as stored: those most files leave out last. */
const FILE = ['path', 'change', 'from', 'insertions', 'deletions', 'binary', 'files', 'state'] as const;
const FILE_STORED = ['path', 'change', 'state', 'insertions', 'deletions', 'from', 'binary', 'files'] as const;

/**
 * A listed file as an array of FILE_STORED's values (null for a key left out, none at the
 * end), when it reads back as it is, keys in the same order; otherwise the object itself.
 */
function packFile(f: unknown): unknown {
  if (!isRecord(f)) return f;
  let at = 0;
  for (const k in f) {
    while (at < FILE.length && FILE[at] !== k) at++;
    if (at === FILE.length || f[k] === null || f[k] === undefined) return f;
  }
  if (f.path === undefined || f.change === undefined || f.state === undefined) return f;
  const out = FILE_STORED.map((k) => f[k] ?? null);
  while (out[out.length - 1] === null) out.pop();
  return out;
}

/** What packFile stored, keys in the parser's order. */
function unpackFile(a: unknown[]): Record<string, unknown> {
  const f: Record<string, unknown> = { path: a[0], change: a[1] };
  if (a[5] != null) f.from = a[5];
  if (a[3] != null) f.insertions = a[3];
  if (a[4] != null) f.deletions = a[4];
  if (a[6] != null) f.binary = a[6];
  if (a[7] != null) f.files = a[7];
  f.state = a[2];
  return f;
}

/** A day folder's key (`2026-11/03/`): its month's key and its name, stored in the month's entry. */
const DAY_KEY = /^([^/]+\/)([^/]+)\/$/;

export function packOpen(open: Open) {
  const { base, ino: inoBase } = baseOf(open);
  const dirs: Record<string, unknown[]> = {};
  for (const [d, [c, m, ino, racy]] of Object.entries(open.dirs)) {
    const st: unknown[] = [packTime(c, base), packTime(m, c), ino - inoBase];
    const key = keyOf(d);
    const day = DAY_KEY.exec(key);
    const month = day ? dirs[day[1]!] : undefined;
    if (day && month) {
      if (month.length < 4) month.push(0);
      if (month.length < 5) month.push({});
      (month[4] as Record<string, unknown[]>)[day[2]!] = racy ? [...st, 1] : st;
      continue;
    }
    dirs[key] = racy ? [...st, 1] : st;
  }
  const files: Record<string, { st: unknown[]; item: CachedItem; hash?: string }> = {};
  for (const [f, k] of Object.entries(open.files)) {
    const [c, m, size, ino] = k.st;
    const meta = k.item.meta as { files?: unknown } | undefined;
    const item = Array.isArray(meta?.files)
      ? ({ ...k.item, meta: { ...meta, files: meta.files.map(packFile) } } as CachedItem)
      : k.item;
    const st = [packTime(c, base), packTime(m, c), size, ino - inoBase];
    files[keyOf(f)] = { st, item, ...(k.hash ? { hash: k.hash } : {}) };
  }
  return { base, ino: inoBase, dirs, files };
}

/** What packOpen stored, or undefined when it is not that shape. */
export function unpackOpen(data: Record<string, unknown>): Open | undefined {
  const { base, ino, dirs, files } = data as Partial<Packed> & Record<string, unknown>;
  if (typeof base !== 'number' || typeof ino !== 'number' || !isRecord(dirs) || !isRecord(files)) return undefined;
  const open: Open = { dirs: {}, files: {} };
  // Plain loops: a session start reads a year's folders here with code not yet compiled. A
  // value of another type reads as NaN, which equals no stat data: a miss.
  for (const d in dirs) {
    const v = dirs[d];
    if (!Array.isArray(v)) return undefined;
    const c = unpackTime(v[0], base);
    open.dirs[pathOf(d)] = [c, unpackTime(v[1], c), ino + Number(v[2]), Number(v[3] ?? 0)];
    const days = v[4];
    if (days === undefined) continue;
    if (!isRecord(days)) return undefined;
    for (const day in days) {
      const w = days[day];
      if (!Array.isArray(w)) return undefined;
      const dc = unpackTime(w[0], base);
      open.dirs[pathOf(`${d}${day}/`)] = [dc, unpackTime(w[1], dc), ino + Number(w[2]), Number(w[3] ?? 0)];
    }
  }
  for (const f in files) {
    const k = files[f];
    if (!isRecord(k) || !Array.isArray(k.st) || !isRecord(k.item)) return undefined;
    const c = unpackTime(k.st[0], base);
    const m = unpackTime(k.st[1], c);
    const size = Number(k.st[2]);
    const inoAfter = Number(k.st[3]);
    const item = k.item as CachedItem;
    const listed = (item.meta as { files?: unknown } | undefined)?.files;
    if (Array.isArray(listed))
      for (let i = 0; i < listed.length; i++) if (Array.isArray(listed[i])) listed[i] = unpackFile(listed[i]);
    open.files[pathOf(f)] = {
      st: [c, m, size, ino + inoAfter],
      item,
      ...(typeof k.hash === 'string' ? { hash: k.hash } : {}),
    };
  }
  return open;
}
