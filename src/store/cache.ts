// The one cache: what parsing each .handoff/ file produced, in the git directory (never in
// the work tree, one per worktree). One rule: an entry is keyed by the file's path and a
// small key that changes with its content, so it can never be stale: a work-tree file's
// stat data (ctime, mtime, size, inode, as git's index keeps them; reader.ts), or its git
// blob id: a staged or committed file's, or that of the text of a file too new for its
// stat data or just written (hashed here, never stored whole). A different tool build
// starts afresh. The parsed items live in their own files (`handoff-items/`, one per
// .handoff/ folder, a month's days together, packed by cache-pack.ts, again around what a
// run changed by cache-repack.ts), read only by a command that parses files, and written
// once, when the command is over, keeping the
// entries of other kinds that other commands (the pre-commit hook, a merge) wrote. A closed
// handoff's body is not kept (tree.ts), and each value a folder's rows share is stored
// once, so the files stay a small fraction of .handoff/. Beside the items, in
// `handoff-cache.json`: git's answers about pairs of commits (resume/history.ts), keyed by
// the two commit ids. Any failure to read or write either is ignored: the cache only saves
// time, it never decides an answer. What a session start reads is store/open-index.ts's.
import path from 'node:path';
import { blobId, type CachedItem, type ParseCache } from './tree.js';
import { version } from '../core/version.js';
import { writeDisposable, writeDisposableSync } from './fs.js';
import { isStatKey, shardFolder } from './cache-pack.js';
import { unpackShard, type Shard } from './cache-unpack.js';
import { repackShard } from './cache-repack.js';

const { mkdirSync, readdirSync, readFileSync, rmSync, statSync } = process.getBuiltinModule('node:fs');

/** Its name in the git directory (the context builds the path once). */
export const CACHE_FILE = 'handoff-cache.json';
// Bump when CachedItem or the parsers change what they produce.
// 12: an open handoff from the index or a commit kept without its body (11 was a layout
// tried and left: its files are ignored as any other format's). 13: blob ids stored as git
// writes them (decoding base64 was a tenth of a walk of a year of handoffs).
const FORMAT = 13;
/**
 * How many answers of each kind are kept (the kind: what a key names before its first NUL,
 * `from`, `own`, or nothing for the commits between two ids): one per branch a session
 * starts on. Per kind, so that a command that writes many handoffs (`check` closing those
 * that landed records each as this clone's, store/own.ts) does not push out the answers a
 * session start reads.
 */
const ANSWERS_KEPT = 8;

export interface OpenCache {
  cache: ParseCache;
  /** The same entries, for a run that reads a few work-tree files: it keeps the others' stat entries. */
  some: ParseCache;
  /** Answers keyed by commit ids; those a run asks about or adds are kept first. */
  answers: { get(key: string): unknown; set(key: string, value: unknown): void };
  /** Writes back the entries used so far, when they differ from what was read. */
  save: () => Promise<void>;
}

interface Stored {
  answers: Record<string, unknown>;
}

/** One open cache per file and process: every reader in a run adds to the same entries. */
const opened = new Map<string, Promise<OpenCache>>();

export function openCache(file: string | null): Promise<OpenCache> {
  if (!file) return Promise.resolve(open(null));
  let o = opened.get(file);
  if (!o) opened.set(file, (o = read(file).then((stored) => open(file, stored))));
  return o;
}

async function read(file: string): Promise<Stored> {
  const data = readJson(file);
  if (data) {
    return { answers: isRecord(data.answers) ? data.answers : {} };
  }
  return { answers: {} };
}

/** A cache file of this format and tool build, or nothing: no cache yet, or unreadable, means parse everything. */
function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (data.format === FORMAT && data.version === toolVersion()) return data;
  } catch {
    // none, or damaged
  }
  return undefined;
}

/**
 * The parsed items, in their own folder beside the cache, one file per .handoff/ folder
 * (pins, each dated folder of handoffs): only a command that parses .handoff/ files reads
 * them, and a command that writes one handoff rewrites one small file, not every entry.
 */
export const ITEMS_DIR = 'handoff-items';

/** The file of the folder a key's path is in (a dated folder's month's): `.handoff/handoffs/2026-11/24` -> `_handoff_handoffs_2026-11`. */
const shardNames = new Map<string, string>();
/** The last folder asked about: a walk asks about each folder's files one after another. */
let last = { folder: '\0', name: '' };
function shardOf(key: string): string {
  return shardIn(key, Math.max(0, key.lastIndexOf('/', key.indexOf('\0'))));
}
/** The file of the folder that ends at `end` of `key` (or of a path). */
function shardIn(key: string, end: number): string {
  if (end === last.folder.length && key.startsWith(last.folder)) return last.name;
  const folder = key.slice(0, end);
  let name = shardNames.get(folder);
  if (name === undefined)
    shardNames.set(
      folder,
      (name =
        shardFolder(`${folder}/`)
          .slice(0, -1)
          .replace(/[^A-Za-z0-9-]/g, '_') || '_'),
    );
  last = { folder, name };
  return name;
}

function readItems(file: string | null): Shard {
  return unpackShard(file ? readJson(file) : undefined);
}

/**
 * A key by a file's whole text (tree.ts cacheKey) as stored: by the text's blob id, so that
 * no entry's key is a file, and a file just written or too new for its stat data shares its
 * entry with the same text staged or committed. Hashed once per key a run asks about.
 */
const hashed = new Map<string, string>();
function byBlob(key: string): string {
  const nul = key.indexOf('\0');
  if (key.charCodeAt(nul + 1) !== 0) return key;
  let blob = hashed.get(key);
  if (blob === undefined) hashed.set(key, (blob = `${key.slice(0, nul)}\0${blobId(key.slice(nul + 2))}`));
  return blob;
}

/**
 * Which entries a run keeps of those it did not use, so that every writer keeps the others'
 * entries instead of replacing them: a work-tree file is known by its stat data, a staged
 * or committed one by its blob id; per path, an entry of the kind the run used replaces
 * the stored one, and a run that read the whole work tree drops the paths no longer there.
 */
const kind = (key: string) => (isStatKey(key) ? 'stat' : 'blob');

function keptItems(stored: Shard, used: ReadonlyMap<string, CachedItem>, walked: boolean): Map<string, CachedItem> {
  const usedPaths = new Set<string>();
  for (const key of used.keys()) usedPaths.add(`${kind(key)}\0${key.slice(0, key.indexOf('\0'))}`);
  const out = new Map(used);
  for (const key of stored.keys()) {
    if (out.has(key)) continue;
    const k = kind(key);
    const p = key.slice(0, key.indexOf('\0'));
    if (usedPaths.has(`${k}\0${p}`)) continue;
    if (walked && (k === 'stat' || !usedPaths.has(`stat\0${p}`))) continue;
    const item = stored.item(key);
    if (item) out.set(key, item);
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const kindOf = (key: string) => key.slice(0, Math.max(0, key.indexOf('\0')));

/**
 * Entries remembered across runs beside the parsed items: those a run asks about or adds
 * come first, and `limit` of each kind are kept.
 */
function keptFirst<V>(stored: Iterable<readonly [string, V]>, limit: number, onAdd: () => void) {
  const known = new Map(stored);
  const used = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = used.get(key) ?? known.get(key);
      if (value !== undefined) used.set(key, value);
      return value;
    },
    set(key: string, value: V): void {
      used.set(key, value);
      onAdd();
    },
    kept: (): Array<[string, V]> => {
      const counts = new Map<string, number>();
      return [...used, ...[...known].filter(([k]) => !used.has(k))].filter(([k]) => {
        const n = counts.get(kindOf(k)) ?? 0;
        counts.set(kindOf(k), n + 1);
        return n < limit;
      });
    },
  };
}

function dropShardsBut(dir: string, kept: ReadonlyMap<string, unknown>): void {
  try {
    for (const name of readdirSync(dir))
      if (name.endsWith('.json') && !kept.has(name.slice(0, -5))) rmSync(path.join(dir, name), { force: true });
  } catch {
    // none yet, or unreadable: the cache only saves time
  }
}

function open(file: string | null, stored: Stored = { answers: {} }): OpenCache {
  const itemsDir = file && path.join(path.dirname(file), ITEMS_DIR);
  const shards = new Map<string, Shard>();
  const used = new Map<string, Map<string, CachedItem>>();
  const shard = (name: string) => {
    let s = shards.get(name);
    if (!s) shards.set(name, (s = readItems(itemsDir && path.join(itemsDir, `${name}.json`))));
    return s;
  };
  const usedIn = (name: string) => {
    let u = used.get(name);
    if (!u) used.set(name, (u = new Map()));
    return u;
  };
  // The rows a walk found by a file's stat data (`stat`): used, as the entries in `used`
  // are, but without their keys, which are built only when the folder is written (usedOf).
  const marked = new Map<string, Set<number>>();
  /** What the run used of a folder: its entries, with the rows marked as read. */
  const usedOf = (name: string, all: Shard) => {
    const u = used.get(name) ?? new Map<string, CachedItem>();
    for (const i of marked.get(name) ?? []) {
      const key = all.stored?.statKey(i);
      const item = all.itemAt(i, true);
      if (key !== undefined && item !== undefined && !u.has(key)) u.set(key, item);
    }
    return u;
  };
  // A run that looked up a work-tree file by its stat data read the whole work tree (reader.ts).
  let walked = false;
  // A run that read only a few files (a writer's view, history-view.ts) writes no shard: a
  // shard holds a month of handoffs, and packing it again for two entries costs more than the
  // next reader of the whole tree takes to parse those two again.
  let wholeTree = false;
  /** Shards with an entry added or replaced in this run. */
  const replaced = new Set<string>();
  let itemsChanged = false;
  let changed = false;
  const answers = keptFirst(Object.entries(stored.answers), ANSWERS_KEPT, () => (changed = true));
  let saving = Promise.resolve();
  let flushing = false;
  // The items are written once, when the command is over (not at each write of `new`): at
  // tens of thousands of handoffs, that file is the largest thing a command writes.
  const flushItems = () => {
    if (!itemsDir || !itemsChanged || !wholeTree) return;
    itemsChanged = false;
    for (const [name, all] of shards) {
      // Nothing added or replaced, and nothing gone (a walk found every file the folder's
      // entries name, so it has nothing to drop there, keptItems): nothing to write. Another
      // entry of a path that one used replaced is left for the next write of the folder.
      if (!replaced.has(name) && (!walked || all.allFound(used.get(name) ?? new Map(), marked.get(name)))) continue;
      const u = usedOf(name, all);
      const kept = keptItems(all, u, walked);
      if (!replaced.has(name) && kept.size === all.size && [...kept.keys()].every((k) => all.row(k) !== undefined))
        continue;
      const packed = repackShard(all.stored, kept);
      if (packed === all.stored) continue; // the folder as read
      try {
        mkdirSync(itemsDir, { recursive: true });
      } catch {
        return; // a read-only git directory: the cache only saves time
      }
      writeDisposableSync(
        path.join(itemsDir, `${name}.json`),
        JSON.stringify({ format: FORMAT, version: toolVersion(), ...packed }),
      );
    }
    // A run that read the whole work tree knows every folder there is: the files of folders
    // gone (moved, or emptied by a checkout) would otherwise stay forever.
    if (walked) dropShardsBut(itemsDir, shards);
  };
  // `walks`: a lookup by stat data through `cache` is part of a walk of the whole work tree
  // (which drops the stat entries of files no longer there); through `some`, of a few files.
  const lookups = (walks: boolean): ParseCache => ({
    get(asked) {
      if (walks) wholeTree = true;
      const key = byBlob(asked);
      const name = shardOf(key);
      const u = usedIn(name);
      let item = u.get(key);
      if (item === undefined) {
        item = shard(name).item(key);
      }
      if (item) u.set(key, item);
      if (walks && kind(key) === 'stat') walked = true;
      itemsChanged = true;
      return item;
    },
    set(asked, given) {
      if (walks) wholeTree = true;
      const key = byBlob(asked);
      const item = key === asked ? given : { ...given, blob: key.slice(key.indexOf('\0') + 1) };
      replaced.add(shardOf(key));
      shard(shardOf(key));
      usedIn(shardOf(key)).set(key, item);
      if (walks && kind(key) === 'stat') walked = true;
      itemsChanged = true;
    },
    stat(path, stamp) {
      if (walks) wholeTree = walked = true;
      itemsChanged = true;
      const name = shardIn(path, Math.max(0, path.lastIndexOf('/')));
      const u = used.get(name);
      // An entry this run added or used by its key (set, get) comes first, as in get.
      const own = u !== undefined && u.size > 0 ? u.get(`${path}\0s${stamp}`) : undefined;
      if (own !== undefined) return own;
      const s = shard(name);
      const i = s.statRow(path, stamp);
      const item = i === undefined ? undefined : s.itemAt(i, true);
      if (item === undefined) return undefined;
      let rows = marked.get(name);
      if (!rows) marked.set(name, (rows = new Set()));
      rows.add(i!);
      return item;
    },
    knows: (p) => shard(shardOf(`${p}\0`)).size > 0,
  });
  const cache = lookups(true);
  return {
    cache,
    some: lookups(false),
    answers: { get: answers.get, set: answers.set },
    save: () => {
      if (itemsChanged && !flushing && itemsDir) {
        flushing = true;
        process.once('beforeExit', flushItems);
      }
      if (!file || !changed) return saving;
      changed = false;
      const kept = { answers: Object.fromEntries(answers.kept()) };
      const text = JSON.stringify({ format: FORMAT, version: toolVersion(), ...kept });
      saving = saving.then(() => writeDisposable(file, text));
      return saving;
    },
  };
}

let stamp: string | undefined;
/**
 * What cached entries depend on: the package version and the build, as the modification
 * time of the file this code runs from (every build writes dist/ anew, parsers included),
 * so a rebuilt or upgraded tool never reads entries an older parser wrote.
 */
export function toolVersion(): string {
  if (stamp === undefined) {
    let built = 0;
    try {
      built = statSync(new URL(import.meta.url)).mtimeMs;
    } catch {
      // not a file (cannot happen from dist/): the version alone
    }
    stamp = `${version()}:${built}`;
  }
  return stamp;
}
