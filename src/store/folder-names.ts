// The handoff files' names (their ids: `<id>.md` less `.md`) in each dated folder, kept in `<git dir>/handoff-names.json` by the
// folder's stat data, so that a writer's view of the history (history-view.ts) lists again
// only the folders that changed: a year is hundreds of folders and tens of thousands of
// names, and listing them all costs more than the rest of what `new` reads of the history.
//
// Exact the way open-index.ts is: every create, delete and rename in a folder changes its
// ctime and mtime, so names kept with the folder's ctime, mtime and inode are the names it
// holds while those are unchanged. A folder changed less than RACY_MS before it was listed
// may change again in the same clock tick without its stat data showing it: its names are
// not kept. The file is only a speed-up: unreadable, of another format, or unwritable, the
// folders are listed.
//
// Stored short, as a year of folders adds up: a folder by its path after `.handoff/handoffs/`,
// its ctime after the file's first and its mtime after its ctime (open-pack.ts packTime),
// its inode number as its difference from the first folder's,
// and its names as what they all begin with (a day's ids share their first characters: the
// time they were made) and the rest of each: when they are all ids, each rest in base 91
// (packId), one after another, where the Crockford base-32 characters took a sixth more
// and a separator each.
import { digit, digitOf } from './cache-meta.js';
import { writeDisposableSync } from './fs.js';
import { isId } from './id.js';
import { RACY_MS } from './reader.js';
import { keyOf, packTime, unpackTime } from './open-pack.js';

// Taken, not imported: see fs.ts.
const { lstatSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

export const NAMES_FILE = 'handoff-names.json';
// 3: stored short (see the top of this file); 4: each folder's names sorted; 5: ids in base 91.
const FORMAT = 5;

/**
 * A folder's ctime and mtime (packTime), its inode, then, when it holds any, what its item
 * files' names less `.md` begin with and the rest of each joined by `/` (`/` never occurs
 * in a name).
 */
type Entry = [
  ctime: string | number,
  mtime: string | number,
  ino: number,
  common?: string,
  rests?: string,
  /** When the names are ids: how many characters of each follow `common`, each rest packed (packId), no `/`. */
  length?: number,
];

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
/** Base-91 digits for k Crockford characters (5k bits), k = 0 to 8: the fewest that hold them. */
const WIDTH = [0, 1, 2, 3, 4, 4, 5, 6, 7];
/** Characters a packed rest of `length` Crockford characters takes: 8 at a time (40 bits, exact in a double). */
const widthOf = (length: number) => 7 * Math.floor(length / 8) + WIDTH[length % 8]!;

/** Crockford base-32 characters (the rest of an id) in base-91 digits (cache-meta.ts digit), 8 at a time. */
function packId(rest: string): string {
  let out = '';
  for (let at = 0; at < rest.length; at += 8) {
    const chunk = rest.slice(at, at + 8);
    let n = 0;
    for (let i = 0; i < chunk.length; i++) n = n * 32 + CROCKFORD.indexOf(chunk[i]!);
    for (let w = WIDTH[chunk.length]!; w > 0; w--) {
      out += digit(n % 91);
      n = Math.floor(n / 91);
    }
  }
  return out;
}

/** What packId made of `length` characters, back. */
function unpackId(packed: string, length: number): string {
  let out = '';
  for (let at = 0, left = length; left > 0; left -= 8) {
    const k = Math.min(8, left);
    let n = 0;
    for (let w = WIDTH[k]! - 1; w >= 0; w--) n = n * 91 + digitOf(packed.charCodeAt(at + w));
    at += WIDTH[k]!;
    let chunk = '';
    for (let i = 0; i < k; i++) {
      chunk = CROCKFORD[n % 32] + chunk;
      n = Math.floor(n / 32);
    }
    out += chunk;
  }
  return out;
}

/** A folder's item names, sorted: how many, the first and the last, and all of them when asked. */
export interface Names {
  count: number;
  first: string | undefined;
  last: string | undefined;
  all(): readonly string[];
}

function listed(names: readonly string[]): Names {
  return { count: names.length, first: names[0], last: names[names.length - 1], all: () => names };
}

/**
 * The names as kept: counted, and the first and last made, without cutting the text into
 * names, which only a folder asked about is (a year is tens of thousands of names, and a
 * writer looks into a few folders).
 */
function namesOf(e: Entry): Names {
  if (typeof e[3] !== 'string' || typeof e[4] !== 'string') return listed([]);
  const common = e[3];
  const rests = e[4];
  if (typeof e[5] === 'number') {
    const length = e[5];
    const width = widthOf(length);
    const count = width > 0 ? Math.floor(rests.length / width) : 0;
    const at = (i: number) => common + unpackId(rests.slice(i * width, (i + 1) * width), length);
    let all: string[] | undefined;
    return {
      count,
      first: count > 0 ? at(0) : undefined,
      last: count > 0 ? at(count - 1) : undefined,
      all: () => (all ??= Array.from({ length: count }, (_, i) => at(i))),
    };
  }
  let count = 1;
  for (let at = rests.indexOf('/'); at >= 0; at = rests.indexOf('/', at + 1)) count++;
  const cut = rests.indexOf('/');
  let all: string[] | undefined;
  return {
    count,
    first: common + (cut < 0 ? rests : rests.slice(0, cut)),
    last: common + rests.slice(rests.lastIndexOf('/') + 1),
    // One string for the folder, cut at each `/`: its names are slices of it.
    all: () => (all ??= (common === '' ? rests : `${common}${rests.replaceAll('/', `/${common}`)}`).split('/')),
  };
}

function entry(
  st: { ctimeMs: number; mtimeMs: number; ino: number },
  base: Pick<Stored, 'base' | 'ino'>,
  names: readonly string[],
): Entry {
  const e: Entry = [packTime(st.ctimeMs, base.base), packTime(st.mtimeMs, st.ctimeMs), st.ino - base.ino];
  if (names.length === 0) return e;
  // At most 25 characters in common: each name keeps one after them.
  let common = names[0]!.slice(0, 25);
  for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
  if (names.every((n) => isId(n)))
    e.push(common, names.map((n) => packId(n.slice(common.length))).join(''), 26 - common.length);
  else e.push(common, names.map((n) => n.slice(common.length)).join('/'));
  return e;
}

interface Stored {
  /** The time and the inode number the entries' are stored after (0: none yet). */
  base: number;
  ino: number;
  dirs: Record<string, Entry>;
}

/** The file as read ahead (readAhead), by path: taken by the next folderNames, which writes it anew. */
const ahead = new Map<string, Stored>();

/**
 * Reads and parses the file now, for the next folderNames in this process: a writer does it
 * while git answers, before its writes change the folders the file is checked against
 * (each folder's names are still taken only while its stat data is the one kept).
 */
export function readAhead(file: string | null): void {
  if (file && !ahead.has(file)) ahead.set(file, load(file));
}

function load(file: string | null): Stored {
  if (!file) return { base: 0, ino: 0, dirs: {} };
  const read = ahead.get(file);
  if (read) {
    ahead.delete(file);
    return read;
  }
  try {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    if (
      data.format === FORMAT &&
      typeof data.base === 'number' &&
      typeof data.ino === 'number' &&
      typeof data.dirs === 'object' &&
      data.dirs !== null
    )
      return data;
  } catch {
    // none yet, or unreadable: every folder is listed
  }
  return { base: 0, ino: 0, dirs: {} };
}

/** What a folder lists as a handoff's file: `<name>.md` not starting with a dot (tree.ts itemKind). */
const isItemName = (name: string) => name.endsWith('.md') && !name.startsWith('.');

/**
 * The item files' names less `.md` in each of `folders` (absolute path `root/<folder>`), in
 * sorted order (ids are times: a year's come sorted folder by folder); a folder gone since it
 * was found is left out. The names of the folders listed are kept in `file` for the next run
 * (`now`: the clock, for the racy rule).
 */
export function folderNames(
  root: string,
  folders: readonly string[],
  file: string | null,
  now = Date.now(),
): Map<string, Names> {
  const { dirs: stored, ...storedBase } = load(file);
  const next: Record<string, Entry> = {};
  const base = { ...storedBase };
  const out = new Map<string, Names>();
  const racy = now - RACY_MS;
  let changed = false;
  for (const folder of folders) {
    const full = `${root}/${folder}`;
    const st = lstatSync(full, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    const key = keyOf(folder);
    const before = stored[key];
    if (
      Array.isArray(before) &&
      unpackTime(before[0], storedBase.base) === st.ctimeMs &&
      unpackTime(before[1], st.ctimeMs) === st.mtimeMs &&
      before[2] === st.ino - storedBase.ino
    ) {
      next[key] = before;
      out.set(folder, namesOf(before));
      continue;
    }
    const names: string[] = [];
    try {
      for (const name of readdirSync(full)) if (isItemName(name)) names.push(name.slice(0, -3));
    } catch {
      continue; // gone since it was listed
    }
    names.sort();
    out.set(folder, listed(names));
    // Changed too recently to vouch for the listing: listed again next time.
    if (st.ctimeMs >= racy) continue;
    if (base.base === 0) Object.assign(base, { base: st.ctimeMs, ino: st.ino });
    next[key] = entry(st, base, names);
    changed = true;
  }
  if (!changed) for (const key in stored) if (!(key in next)) changed = true;
  if (changed && file) writeDisposableSync(file, JSON.stringify({ format: FORMAT, ...base, dirs: next }));
  return out;
}
