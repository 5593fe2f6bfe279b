// How handoff-open.json (open-index.ts) stores what it keeps: paths after `.handoff/handoffs/`, a
// change time as its difference from the file's first (see packTime), a modification time
// as its difference from the change time (a folder's are most often the same: 0), an inode
// number as its difference from the first (a checkout's are near one another). Each open
// handoff's front-matter is kept as the parser gave it: a session start reads every one
// (which is open on this branch), and unpacking them from a table of values, as the items
// cache does, cost more than their bytes; instead each value is stored in place, in an array
// in a fixed order (no key names: they were most of an open handoff's bytes), without what
// its file's name says (the id) and with `created` as milliseconds after the id's time (see
// packMeta); its listed files as arrays with the usual change and state as numbers (see
// packFile); a pin the same way, its text first (see packPin); and a month's day folders
// within the month's entry, by their names, each after the one before (see packDays). Pure;
// what does not read back is a miss.
import { FILE, META as FRONT_MATTER, OPTIONAL_META } from './cache-meta.js';
import { idTime } from './id.js';
import { HANDOFFS_PREFIX, PINS_PREFIX, type CachedItem } from './tree.js';

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
const FILE_STORED = ['path', 'change', 'state', 'insertions', 'deletions', 'from', 'binary', 'files'] as const;

/**
 * The usual values of a listed file's `change` and `state`, stored as their index here (any
 * other string is stored as it is): a number is one character where the word was up to
 * twelve, for each of an open handoff's files.
 */
const CHANGES = ['modified', 'added', 'deleted', 'renamed', 'copied', 'type-changed'];
const STATES = ['committed', 'staged', 'unstaged', 'untracked'];
const code = (v: unknown, values: readonly string[]) => {
  const i = typeof v === 'string' ? values.indexOf(v) : -1;
  return i < 0 ? v : i;
};
const decode = (v: unknown, values: readonly string[]) => (typeof v === 'number' ? values[v] : v);

/**
 * A listed file as an array of FILE_STORED's values (null for a key left out, none at the
 * end; change and state as codes), when it reads back as it is, keys in the same order;
 * otherwise the object itself.
 */
function packFile(f: unknown): unknown {
  if (!isRecord(f)) return f;
  let at = 0;
  for (const k in f) {
    while (at < FILE.length && FILE[at] !== k) at++;
    if (at === FILE.length || f[k] === null || f[k] === undefined) return f;
  }
  if (typeof f.path !== 'string' || typeof f.change !== 'string' || typeof f.state !== 'string') return f;
  const out: unknown[] = FILE_STORED.map((k) => f[k] ?? null);
  out[1] = code(out[1], CHANGES);
  out[2] = code(out[2], STATES);
  while (out[out.length - 1] === null) out.pop();
  return out;
}

/** What packFile stored, keys in the parser's order. */
function unpackFile(a: unknown[]): Record<string, unknown> {
  const f: Record<string, unknown> = { path: a[0], change: decode(a[1], CHANGES) };
  if (a[5] != null) f.from = a[5];
  if (a[3] != null) f.insertions = a[3];
  if (a[4] != null) f.deletions = a[4];
  if (a[6] != null) f.binary = a[6];
  if (a[7] != null) f.files = a[7];
  f.state = decode(a[2], STATES);
  return f;
}

/** An open handoff's front-matter keys in the parser's order; `step` and the last three only when set (OPTIONAL_META). */
const META = [...FRONT_MATTER, 'files'] as const;
/** As stored (META but the id): those most handoffs leave out last, so that they are not stored. */
const META_STORED = [
  'goal',
  'status',
  'created',
  'author',
  'branch',
  'base',
  'head',
  'parent',
  'files',
  'step',
  'superseded_by',
  'finished',
  'landed',
] as const;

/** The id a handoff file's name says: `<id>.md`. */
const idOfName = (file: string) => file.slice(file.lastIndexOf('/') + 1, -3);

/**
 * `created` as stored: milliseconds after the id's time when that reads back as the same
 * text (as `new` writes it), else the text itself.
 */
function packCreated(created: string, id: string): number | string {
  const made = idTime(id);
  const delta = Date.parse(created) - made;
  return Number.isSafeInteger(delta) && delta >= 0 && new Date(made + delta).toISOString() === created
    ? delta
    : created;
}

/**
 * A handoff's front-matter as an array of META_STORED's values (none at the end; a listed
 * file packed, `created` after the id's time), when the file is named after its id and every
 * key is one of META, in its order, with a value of the parser's type; otherwise undefined
 * (the item is stored as it is).
 */
function packMeta(meta: unknown, file: string): unknown[] | undefined {
  if (!isRecord(meta) || meta.id !== idOfName(file)) return undefined;
  let at = 0;
  for (const k in meta) {
    while (at < META.length && META[at] !== k) at++;
    if (at === META.length) return undefined;
    const v = meta[k];
    if (k === 'files' ? !Array.isArray(v) : !(typeof v === 'string' || (v === null && !OPTIONAL_META.has(k))))
      return undefined;
  }
  for (const k of META) if (!OPTIONAL_META.has(k) && !(k in meta)) return undefined;
  const out: unknown[] = META_STORED.map((k) => meta[k] ?? null);
  out[2] = packCreated(meta.created as string, meta.id);
  out[8] = (meta.files as unknown[]).map(packFile);
  while (out[out.length - 1] === null) out.pop();
  return out;
}

/** What packMeta stored, keys in the parser's order. */
function unpackMeta(a: unknown[], file: string): Record<string, unknown> {
  const id = idOfName(file);
  const created = typeof a[2] === 'number' ? new Date(idTime(id) + a[2]).toISOString() : a[2];
  const listed = Array.isArray(a[8]) ? a[8] : [];
  for (let i = 0; i < listed.length; i++) if (Array.isArray(listed[i])) listed[i] = unpackFile(listed[i]);
  const meta: Record<string, unknown> = { id, goal: a[0] };
  if (a[9] != null) meta.step = a[9];
  meta.status = a[1];
  meta.created = created;
  meta.author = a[3];
  meta.branch = a[4];
  meta.base = a[5];
  meta.head = a[6];
  meta.parent = a[7];
  if (a[10] != null) meta.superseded_by = a[10];
  if (a[11] != null) meta.finished = a[11];
  if (a[12] != null) meta.landed = a[12];
  meta.files = listed;
  return meta;
}

/** A pin's front-matter keys in the parser's order (pin.ts parsePin); the last four only when set. */
const PIN_META = ['id', 'created', 'author', 'status', 'scope', 'supersedes', 'retired', 'reason'] as const;
const PIN_REQUIRED = 4;

/**
 * A pin as an array: its text, then its front-matter's values in PIN_META's order after the
 * id (which its file's name says; `created` after the id's time, as a handoff's; none at the
 * end), when its file is named after its id and every key is one of PIN_META, in its order,
 * with a value of the parser's type; otherwise undefined (stored as it is). Twenty pins were
 * a third of the file, each id written twice.
 */
function packPin(item: CachedItem, file: string): unknown[] | undefined {
  const meta = item.meta as unknown;
  if (typeof item.body !== 'string' || !isRecord(meta) || meta.id !== idOfName(file)) return undefined;
  for (const k in item) if (k !== 'meta' && k !== 'body') return undefined;
  let at = 0;
  for (const k in meta) {
    while (at < PIN_META.length && PIN_META[at] !== k) at++;
    if (at === PIN_META.length) return undefined;
    const v = meta[k];
    if (k === 'scope' ? !(Array.isArray(v) && v.every((g) => typeof g === 'string')) : typeof v !== 'string')
      return undefined;
  }
  for (const k of PIN_META.slice(0, PIN_REQUIRED)) if (!(k in meta)) return undefined;
  const out: unknown[] = [
    item.body,
    packCreated(meta.created as string, meta.id),
    ...PIN_META.slice(2).map((k) => meta[k] ?? null),
  ];
  while (out[out.length - 1] === null) out.pop();
  return out;
}

/** What packPin stored, keys in the parser's order. */
function unpackPin(a: unknown[], file: string): CachedItem {
  const id = idOfName(file);
  const meta: Record<string, unknown> = {
    id,
    created: typeof a[1] === 'number' ? new Date(idTime(id) + a[1]).toISOString() : a[1],
    author: a[2],
    status: a[3],
  };
  for (let i = PIN_REQUIRED; i < PIN_META.length; i++) if (a[i] != null) meta[PIN_META[i]!] = a[i];
  return { meta, body: a[0] } as unknown as CachedItem;
}

/** A day folder's key (`2026-11/03/`): its month's key and its name, stored in the month's entry. */
const DAY_KEY = /^([^/]+\/)([^/]+)\/$/;

/**
 * A month's day folders as stored in its entry: each one's stat data after the day's before
 * (the month's for the first), in the order the object gives its keys back (JSON keeps it):
 * the change time after that one's, the modification time after its own change time and
 * that one's difference between the two (a checkout's folders have none, folders copied with
 * their times kept about the same one), the inode number after that one's.
 */
function packDays(month: DirStat, days: Record<string, DirStat>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  let [c0, m0, ino0] = month;
  for (const day of Object.keys(days)) {
    const [c, m, ino, racy] = days[day]!;
    const st = [packTime(c, c0), packTime(m, c + (m0 - c0)), ino - ino0];
    out[day] = racy ? [...st, 1] : st;
    [c0, m0, ino0] = [c, m, ino];
  }
  return out;
}

export function packOpen(open: Open) {
  const { base, ino: inoBase } = baseOf(open);
  const dirs: Record<string, unknown[]> = {};
  const months = new Map<string, { stat: DirStat; days: Record<string, DirStat> }>();
  for (const [d, stat] of Object.entries(open.dirs)) {
    const [c, m, ino, racy] = stat;
    const key = keyOf(d);
    const day = DAY_KEY.exec(key);
    const month = day ? months.get(day[1]!) : undefined;
    if (day && month) {
      month.days[day[2]!] = stat;
      continue;
    }
    const st: unknown[] = [packTime(c, base), packTime(m, c), ino - inoBase];
    dirs[key] = racy ? [...st, 1] : st;
    months.set(key, { stat, days: {} });
  }
  for (const [key, { stat, days }] of months) {
    if (Object.keys(days).length === 0) continue;
    const month = dirs[key]!;
    if (month.length < 4) month.push(0);
    month.push(packDays(stat, days));
  }
  const files: Record<string, { st: unknown[]; m?: unknown[]; p?: unknown[]; item?: CachedItem; hash?: string }> = {};
  for (const [f, k] of Object.entries(open.files)) {
    const [c, m, size, ino] = k.st;
    // A handoff that is its front-matter alone (an open one: its body is read from the file), or a pin, as an array.
    const pin = f.startsWith(PINS_PREFIX) && f.endsWith('.md') ? packPin(k.item, f) : undefined;
    const only = !pin && Object.keys(k.item).length === 1 && f.endsWith('.md');
    const packed = only ? packMeta(k.item.meta, f) : undefined;
    const st = [packTime(c, base), packTime(m, c), size, ino - inoBase];
    files[keyOf(f)] = {
      st,
      ...(pin ? { p: pin } : packed ? { m: packed } : { item: k.item }),
      ...(k.hash ? { hash: k.hash } : {}),
    };
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
    let c = unpackTime(v[0], base);
    let m = unpackTime(v[1], c);
    let i = ino + Number(v[2]);
    open.dirs[pathOf(d)] = [c, m, i, Number(v[3] ?? 0)];
    const days = v[4];
    if (days === undefined) continue;
    if (!isRecord(days)) return undefined;
    // packDays: each after the day before, in the object's order.
    for (const day in days) {
      const w = days[day];
      if (!Array.isArray(w)) return undefined;
      const dc = unpackTime(w[0], c);
      m = unpackTime(w[1], dc + (m - c));
      c = dc;
      i += Number(w[2]);
      open.dirs[pathOf(`${d}${day}/`)] = [c, m, i, Number(w[3] ?? 0)];
    }
  }
  for (const f in files) {
    const k = files[f];
    if (!isRecord(k) || !Array.isArray(k.st) || !(Array.isArray(k.m) || Array.isArray(k.p) || isRecord(k.item)))
      return undefined;
    const c = unpackTime(k.st[0], base);
    const m = unpackTime(k.st[1], c);
    const size = Number(k.st[2]);
    const inoAfter = Number(k.st[3]);
    const file = pathOf(f);
    const item = Array.isArray(k.m)
      ? ({ meta: unpackMeta(k.m, file) } as unknown as CachedItem)
      : Array.isArray(k.p)
        ? unpackPin(k.p, file)
        : (k.item as CachedItem);
    open.files[file] = {
      st: [c, m, size, ino + inoAfter],
      item,
      ...(typeof k.hash === 'string' ? { hash: k.hash } : {}),
    };
  }
  return open;
}
