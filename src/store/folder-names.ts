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
// and its names packed (names-pack.ts).
import { writeDisposableSync } from './fs.js';
import { namesKey, packedKey, packNames, unpackId, widthOf } from './names-pack.js';
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

/** A folder's item names, sorted: how many, the first and the last, and all of them when asked. */
export interface Names {
  count: number;
  first: string | undefined;
  last: string | undefined;
  all(): readonly string[];
  /** Equal for equal names (names-pack.ts namesKey), made without cutting the names kept. */
  key(): string;
}

function listed(names: readonly string[]): Names {
  return {
    count: names.length,
    first: names[0],
    last: names[names.length - 1],
    all: () => names,
    key: () => namesKey(names),
  };
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
  const key = () => packedKey(e.slice(3));
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
      key,
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
    key,
  };
}

function entry(
  st: { ctimeMs: number; mtimeMs: number; ino: number },
  base: Pick<Stored, 'base' | 'ino'>,
  names: readonly string[],
): Entry {
  const e: Entry = [packTime(st.ctimeMs, base.base), packTime(st.mtimeMs, st.ctimeMs), st.ino - base.ino];
  e.push(...packNames(names));
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
