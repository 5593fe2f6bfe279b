// How the items cache (cache-pack.ts) stores a handoff's front-matter: as a short string of
// indexes into its folder's table of values, in the order the parser gives the keys
// (handoff.ts validateMeta), each listed file as its path and the rest of it (most files
// of a folder share that). A year of handoffs is tens of thousands of front-matters whose
// key names and repeated values were most of the cache. Pure; a front-matter that would not
// come back exactly as it was (a key this version does not know) is not packed.
import type { FileChange, HandoffMeta } from './handoff.js';
import type { CachedItem } from './tree.js';
import { idTime, isoTime } from './id.js';

/** The front-matter's keys in the parser's order (handoff.ts validateMeta); optional ones are left out when null. */
export const META = [
  'id',
  'goal',
  'step',
  'status',
  'created',
  'author',
  'branch',
  'base',
  'head',
  'parent',
  'superseded_by',
  'finished',
  'landed',
] as const;
export const OPTIONAL_META = new Set<string>(['step', 'superseded_by', 'finished', 'landed']);
/** A listed file's keys in the parser's order, and as packed: the keys most files leave out last. */
export const FILE = ['path', 'change', 'from', 'insertions', 'deletions', 'binary', 'files', 'state'] as const;
const FILE_PACKED = ['path', 'change', 'state', 'insertions', 'deletions', 'from', 'binary', 'files'] as const;
/** Where each key of FILE is in a packed file. */
const AT = FILE.map((k) => FILE_PACKED.indexOf(k));

/**
 * What a row stores of a handoff's front-matter: table indexes in META's order, then the
 * files, two indexes each: the path, and the rest of the file packed (most files of a
 * folder share it). `created`, when it is the time the id was made plus a few milliseconds
 * (as `new` writes it), is stored as that difference, negative: -1 for none.
 */
function packMeta(meta: HandoffMeta, intern: Intern): number[] {
  const delta = createdDelta(meta);
  const out = META.map((k) => (k === 'created' && delta !== undefined ? -1 - delta : intern.value(meta[k] ?? null)));
  for (const f of meta.files) {
    const t = FILE_PACKED.map((k) => intern.value((f as unknown as Record<string, unknown>)[k] ?? null));
    while (t.length > 1 && t[t.length - 1] === 0) t.pop();
    out.push(t[0]!, intern.tuple(t.slice(1)));
  }
  return out;
}

const CREATED = META.indexOf('created');

function createdDelta(meta: HandoffMeta): number | undefined {
  try {
    const made = idTime(meta.id);
    const delta = Date.parse(meta.created) - made;
    return delta >= 0 && delta < 1e9 && isoTime(made + delta) === meta.created ? delta : undefined;
  } catch {
    return undefined; // not a time a Date holds
  }
}

/**
 * The indexes as text: each in base 91 digits (the characters JSON keeps as they are, from
 * `#` to `~` but the backslash), least significant first, digits 46 and up saying that
 * more follow (an index under 46, as the null and a folder's first values are, is one
 * character); a `created` stored as a difference, in base 36 before a `!`. A string is one
 * small value to parse where an array of numbers was one per index.
 */
function encode(packed: readonly number[]): string {
  let out = packed[CREATED]! < 0 ? `${(-1 - packed[CREATED]!).toString(36)}!` : '';
  for (let i = 0; i < packed.length; i++) {
    if (i === CREATED && packed[i]! < 0) continue;
    let n = packed[i]!;
    while (n >= 46) {
      out += digit(46 + (n % 45));
      n = Math.floor(n / 45);
    }
    out += digit(n);
  }
  return out;
}

/** One base-91 digit as a character (see encode), and back. */
export const digit = (d: number) => String.fromCharCode(35 + d >= 92 ? 36 + d : 35 + d);
export const digitOf = (c: number) => (c > 92 ? c - 36 : c - 35);

/** The first index of a packed front-matter: its id's. */
export function firstIndex(text: string): number {
  let n = 0;
  for (let at = text.indexOf('!') + 1, scale = 1; at < text.length; scale *= 45) {
    const c = text.charCodeAt(at++);
    const d = digitOf(c);
    if (d < 46) return n + d * scale;
    n += (d - 46) * scale;
  }
  return n;
}

/**
 * The listed files unpacked from each folder's table, by their two indexes: a folder's
 * handoffs list the same files (path, change, counts) again and again, and one object serves
 * every front-matter that lists it (nothing changes a file entry once read), so a year of
 * handoffs unpacks a few thousand file entries, not a hundred thousand.
 */
const filesOf = new WeakMap<readonly unknown[], Map<number, FileChange>>();
/** Indexes under this make one number as a pair (far over any folder's table). */
const PAIR = 2 ** 26;

export function unpackMeta(text: string, table: readonly unknown[]): HandoffMeta {
  const bang = text.indexOf('!');
  let at = bang + 1;
  const next = () => {
    let n = 0;
    for (let scale = 1; at < text.length; scale *= 45) {
      const d = digitOf(text.charCodeAt(at++));
      if (d < 46) return n + d * scale;
      n += (d - 46) * scale;
    }
    return n;
  };
  const value = () => table[next()] ?? null;
  // Each key stored by name, in META's order (one shape per set of optional keys present,
  // where a key stored by a computed name made every store a lookup).
  const id = value() as string;
  const goal = value();
  const step = value();
  const status = value();
  const created = bang >= 0 ? isoTime(idTime(id) + Number.parseInt(text.slice(0, bang), 36)) : value();
  const author = value();
  const branch = value();
  const base = value();
  const head = value();
  const parent = value();
  const supersededBy = value();
  const finished = value();
  const landed = value();
  const meta: Record<string, unknown> = step === null ? { id, goal } : { id, goal, step };
  meta.status = status;
  meta.created = created;
  meta.author = author;
  meta.branch = branch;
  meta.base = base;
  meta.head = head;
  meta.parent = parent;
  if (supersededBy !== null) meta.superseded_by = supersededBy;
  if (finished !== null) meta.finished = finished;
  if (landed !== null) meta.landed = landed;
  const files: FileChange[] = [];
  let known = filesOf.get(table);
  if (!known) filesOf.set(table, (known = new Map()));
  while (at < text.length) {
    const path = next();
    const restAt = next();
    const key = path < PAIR && restAt < PAIR ? path * PAIR + restAt : undefined;
    let f = key === undefined ? undefined : known.get(key);
    if (f === undefined) {
      const rest = table[restAt] as number[];
      const file: Record<string, unknown> = {};
      for (let i = 0; i < FILE.length; i++) {
        const v = table[(AT[i] === 0 ? path : rest[AT[i]! - 1]) ?? 0] ?? null;
        if (v !== null) file[FILE[i]!] = v;
      }
      f = file as unknown as FileChange;
      if (key !== undefined) known.set(key, f);
    }
    files.push(f);
  }
  meta.files = files;
  return meta as unknown as HandoffMeta;
}

/** Marks each index of the table a packed front-matter points to, its files' packed rests' too. */
export function markMeta(text: string, table: readonly unknown[], mark: (index: number) => void): void {
  const bang = text.indexOf('!');
  const metaCount = bang >= 0 ? META.length - 1 : META.length;
  let n = 0;
  for (let at = bang + 1, scale = 1, count = 0; at < text.length; ) {
    const d = digitOf(text.charCodeAt(at++));
    if (d >= 46) {
      n += (d - 46) * scale;
      scale *= 45;
      continue;
    }
    n += d * scale;
    mark(n);
    // A file's second index is its packed rest: an array of indexes.
    const rest = table[n];
    if (count >= metaCount && (count - metaCount) % 2 === 1 && Array.isArray(rest))
      for (const i of rest) if (typeof i === 'number') mark(i);
    count++;
    n = 0;
    scale = 1;
  }
}

/** A table being filled: each value, and each packed file (an array of indexes), once. */
export interface Intern {
  value(v: unknown): number;
  /** An array of indexes (and arrays of them), by its JSON text. */
  tuple(t: unknown[]): number;
}

/** A table to fill: a new one, or one read (its values where they are, new ones after them). */
export function interning(stored: readonly unknown[] = [null]): { table: unknown[]; intern: Intern } {
  const table = [...stored];
  const values = new Map<unknown, number>();
  const tuples = new Map<string, number>();
  for (let i = table.length - 1; i >= 0; i--) {
    const v = table[i];
    if (Array.isArray(v)) tuples.set(JSON.stringify(v), i);
    else values.set(v, i);
  }
  return {
    table,
    intern: {
      value(v) {
        let i = values.get(v);
        if (i === undefined) values.set(v, (i = table.push(v) - 1));
        return i;
      },
      tuple(t) {
        const key = JSON.stringify(t);
        let i = tuples.get(key);
        if (i === undefined) tuples.set(key, (i = table.push(t) - 1));
        return i;
      },
    },
  };
}

const isHandoffMeta = (meta: object): meta is HandoffMeta => 'files' in meta && Array.isArray(meta.files);

/** A value the table gives back as it is, as JSON: a string, a boolean or a finite number. */
const plain = (v: unknown) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Whether unpackMeta gives `meta` back as it is, as JSON, from what packMeta stores: a plain
 * object of META's keys in its order (an optional one only when set, the others set or
 * null), then `files`, each a plain object of FILE's keys in its order, every value set to a
 * string, a boolean or a finite number. Checked so, not by packing and unpacking each one on
 * a table of its own: a fresh clone's first `check` packs a year of front-matters.
 */
function packable(meta: HandoffMeta): boolean {
  if (!isPlainObject(meta)) return false;
  const keys = Object.keys(meta);
  let at = 0;
  for (const k of META) {
    if (keys[at] !== k) {
      if (!OPTIONAL_META.has(k)) return false;
      continue;
    }
    const v = meta[k];
    if (v === null ? OPTIONAL_META.has(k) : !plain(v)) return false;
    at++;
  }
  if (keys[at] !== 'files' || at + 1 !== keys.length) return false;
  for (const f of meta.files as unknown[]) {
    if (!isPlainObject(f)) return false;
    const fileKeys = Object.keys(f);
    let i = 0;
    for (const k of FILE)
      if (fileKeys[i] === k) {
        if (!plain(f[k])) return false;
        i++;
      }
    if (i !== fileKeys.length) return false;
  }
  return true;
}

/** A handoff's front-matter packed as text, or what it does not know as it is. */
export function packedMeta(meta: CachedItem['meta'], intern: Intern): unknown {
  if (meta === undefined) return 0;
  if (!isHandoffMeta(meta)) return meta;
  return packable(meta) ? encode(packMeta(meta, intern)) : meta;
}
