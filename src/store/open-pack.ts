// How handoff-open.json (open-index.ts) stores what it keeps: paths after `.handoff/`, a
// modification time as its difference from the change time (a folder's are most often the
// same: 0), and each open handoff's front-matter packed into one table of values, as the
// items cache does (cache-meta.ts): fifty branches' handoffs share their authors, file
// paths and the rest of each file's entry. Pure; what does not read back is a miss.
import { interning, packedMeta, unpackMeta } from './cache-meta.js';
import { HANDOFF_DIR, type CachedItem } from './tree.js';

export type Stat = [ctimeMs: number, mtimeMs: number, size: number, ino: number];
/** A folder's stat data, and 1 when it must be listed again. */
export type DirStat = [ctimeMs: number, mtimeMs: number, ino: number, racy: number];
export interface Kept {
  st: Stat;
  item: CachedItem;
  /** The blob id of the text, while the stat data is too young to vouch for it. */
  hash?: string;
}
export interface Open {
  dirs: Record<string, DirStat>;
  files: Record<string, Kept>;
}

interface Packed {
  table: unknown[];
  dirs: Record<string, number[]>;
  files: Record<string, { st: number[]; item: Record<string, unknown>; hash?: string }>;
}

const ROOT = `${HANDOFF_DIR}/`;

/**
 * Two times of one stat, the second as its difference from the first: both are about the
 * same size, so the difference is exact and adding it back gives the second again.
 */
const apart = (c: number, m: number) => m - c;

export function packOpen(open: Open): Packed {
  const { table, intern } = interning();
  const dirs: Packed['dirs'] = {};
  for (const [d, [c, m, ino, racy]] of Object.entries(open.dirs)) {
    if (d.startsWith(ROOT)) dirs[d.slice(ROOT.length)] = racy ? [c, apart(c, m), ino, 1] : [c, apart(c, m), ino];
  }
  const files: Packed['files'] = {};
  for (const [f, k] of Object.entries(open.files)) {
    if (!f.startsWith(ROOT)) continue;
    const [c, m, size, ino] = k.st;
    const item: Record<string, unknown> = { ...k.item };
    if (k.item.meta !== undefined) item.meta = packedMeta(k.item.meta, intern);
    files[f.slice(ROOT.length)] = { st: [c, apart(c, m), size, ino], item, ...(k.hash ? { hash: k.hash } : {}) };
  }
  return { table, dirs, files };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const numbers = (v: unknown, n: number): v is number[] =>
  Array.isArray(v) && v.length >= n && v.every((x) => typeof x === 'number');

/** What packOpen stored, or undefined when it is not that shape. */
export function unpackOpen(data: Record<string, unknown>): Open | undefined {
  const { table, dirs, files } = data;
  if (!Array.isArray(table) || !isRecord(dirs) || !isRecord(files)) return undefined;
  const open: Open = { dirs: {}, files: {} };
  for (const [d, v] of Object.entries(dirs)) {
    if (!numbers(v, 3)) return undefined;
    open.dirs[ROOT + d] = [v[0]!, v[0]! + v[1]!, v[2]!, v[3] ?? 0];
  }
  for (const [f, k] of Object.entries(files)) {
    if (!isRecord(k) || !numbers(k.st, 4) || !isRecord(k.item)) return undefined;
    const [c, dm, size, ino] = k.st as number[];
    const item = { ...k.item } as CachedItem & { meta?: unknown };
    if (typeof item.meta === 'string') item.meta = unpackMeta(item.meta, table);
    open.files[ROOT + f] = {
      st: [c!, c! + dm!, size!, ino!],
      item: item as CachedItem,
      ...(typeof k.hash === 'string' ? { hash: k.hash } : {}),
    };
  }
  return open;
}
