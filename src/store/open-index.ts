// What a session start needs of .handoff/, without reading its history: the pins, the open
// handoffs and the files that could not be read, kept parsed in `<git dir>/handoff-open.json`
// with the stat data of each and of each item folder. A year of a team's handoffs is tens of
// thousands of closed files; a session start reads none of them.
//
// How it stays exact, the way git's index does with stat data: a kept file is reused only
// while its ctime, mtime, size and inode are unchanged. A folder whose stat data is
// unchanged has gained, lost and replaced no file (every create, delete and rename changes
// it); a changed one is listed again, and of its files only those changed since the folder
// was last seen (ctime not older than the folder's ctime then: the same file system's
// clock) are read. A closed handoff is recognised from its `status:` line without loading
// the YAML parser; anything less plain is parsed. Stat data younger than RACY may not yet
// show a change made in the same clock tick: such a folder is listed again next time, and
// such a file keeps a hash of its text to compare (textHash).
//
// An open handoff is kept without its body: a session start shows the current branch's
// alone, read from its file when asked (one file a branch, whose stat data was just
// checked), and fifty branches' bodies would be most of this file.
//
// Not seen here: a closed handoff edited in place (its folder unchanged) until its folder
// changes. `handoff reopen` rewrites through a rename, and git replaces files it checks out,
// so both are seen; `list`, `check` and the roadmap read every file.
import type { Stats } from 'node:fs';
import path from 'node:path';
import { toolVersion } from './cache.js';
import { writeDisposable } from './fs.js';
import { assertInside } from '../security/guard.js';
import { splitFrontMatter } from './split.js';
import { loadParsers } from './parsers.js';
import { type Kept, type Open, packOpen, type Stat, unpackOpen } from './open-pack.js';
import { DAY, MONTH } from './reader.js';
import {
  HANDOFFS_PREFIX,
  itemKind,
  NOT_A_FILE,
  type CachedItem,
  toParse,
  parseTree,
  PINS_PREFIX,
  SYMLINK_REFUSED,
  tooLarge,
  type Tree,
  type TreeFile,
} from './tree.js';

// Taken, not imported: see store/fs.ts.
const { lstatSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

export const OPEN_FILE = 'handoff-open.json';
// 2: no open handoff's body, a hash instead of a young file's text, packed (open-pack.ts).
// 3: listed files as arrays, day folders within their month's entry.
// 4: an open handoff's front-matter as an array, without its id, `created` after the id's time.
// 5: a pin as an array too, its text first; a day folder's stat data after the day's before.
const FORMAT = 5;
const RACY = 2000;

const stat = (s: Stats): Stat => [s.ctimeMs, s.mtimeMs, s.size, s.ino];
const same = (a: Stat, b: Stat) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

function load(file: string | null): Open | undefined {
  if (!file) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    if (data.format === FORMAT && data.version === toolVersion()) return unpackOpen(data);
  } catch {
    // none yet, or unreadable: every folder is listed
  }
  return undefined;
}

function add(m: Map<string, string[]>, key: string, value: string): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

function lstat(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * A handoff whose front-matter says plainly that it is closed: one `status` key, quoted or
 * not, `done` or `superseded`. Anything else (flow style, an alias, a second status) is
 * left to the parser.
 */
export function plainlyClosed(text: string): boolean {
  if (!text.startsWith('---\n')) return false;
  const end = text.search(/\n(---|\.\.\.)[ \t]*(\n|$)/);
  const head = end < 0 ? text : text.slice(0, end + 1);
  const keys = head.match(/^["']?status["']?[ \t]*:/gm);
  return keys?.length === 1 && /^status:[ \t]*(["']?)(done|superseded)\1[ \t]*(#.*)?$/m.test(head);
}

/**
 * The pins, open handoffs and unreadable item files of the working tree (see the top of this
 * file). `known`: what a file with this text parsed to already in this run (a writer's own
 * files), so it is not parsed again.
 */
export async function readOpen(
  root: string,
  file: string | null,
  known?: (rel: string, text: string) => CachedItem | undefined,
): Promise<Tree> {
  const started = Date.now();
  // Joined by hand: every name below is one of our folders or a name readdir gave, so
  // there is nothing for path.join to normalize, and it would, character by character,
  // for each of a year's hundreds of folders.
  const at = (rel: string) => `${root}/${rel}`;
  /** An open handoff's body, from its file (empty when it is gone or no longer splits: the next run sees why). */
  const bodyOf = (rel: string): string => {
    try {
      return splitFrontMatter(readText(at(rel)) ?? '', rel).body;
    } catch {
      return '';
    }
  };
  const stored = load(file);
  const next: Open = { dirs: {}, files: {} };
  const children = new Map<string, string[]>();
  for (const d of Object.keys(stored?.dirs ?? {})) add(children, d.slice(0, d.lastIndexOf('/', d.length - 2) + 1), d);
  // The kept files by folder: a session start looks at every dated folder of a year.
  const keptIn = new Map<string, string[]>();
  for (const f of Object.keys(stored?.files ?? {})) add(keptIn, f.slice(0, f.lastIndexOf('/') + 1), f);
  const toRead: TreeFile[] = [];
  let changed = !stored;

  const keep = (rel: string, st: Stats, old: Kept | undefined): boolean => {
    if (!old || !same(old.st, stat(st))) return false;
    if (old.hash !== undefined) {
      const text = readText(at(rel));
      if (text === undefined || textHash(text) !== old.hash) return false;
      if (st.ctimeMs < started - RACY) {
        next.files[rel] = { st: old.st, item: old.item };
        changed = true;
        return true;
      }
    }
    next.files[rel] = old;
    return true;
  };
  const look = (rel: string, st: Stats | undefined) => {
    if (!st) return void (changed ||= stored?.files[rel] !== undefined);
    if (st.isSymbolicLink() || !st.isFile()) {
      const problem = { message: st.isSymbolicLink() ? SYMLINK_REFUSED : NOT_A_FILE };
      if (!stored?.files[rel]) changed = true;
      next.files[rel] = { st: stat(st), item: { problem } };
      return;
    }
    if (keep(rel, st, stored?.files[rel])) return;
    changed = true;
    const text = readText(at(rel));
    if (text === undefined) return;
    if (itemKind(rel) === 'handoff' && plainlyClosed(text)) return;
    toRead.push({ path: rel, text });
  };
  const visit = (rel: string, sub: RegExp | undefined) => {
    const st = lstat(at(rel));
    if (!st?.isDirectory()) return void (changed ||= stored?.dirs[rel] !== undefined);
    const before = stored?.dirs[rel];
    // Unchanged, and old enough then to vouch: kept as it was. Indexed loops, no array made
    // per folder: a year holds hundreds of dated folders, walked once a process by code the
    // compiler has not seen yet.
    if (before && before[0] === st.ctimeMs && before[1] === st.mtimeMs && before[2] === st.ino && !before[3]) {
      next.dirs[rel] = before;
      const files = keptIn.get(rel);
      if (files) for (let i = 0; i < files.length; i++) look(files[i]!, lstat(at(files[i]!)));
      const dirs = children.get(rel);
      const deeper = sub === MONTH ? DAY : undefined;
      if (dirs) for (let i = 0; i < dirs.length; i++) visit(dirs[i]!, deeper);
      return;
    }
    const now: Open['dirs'][string] = [st.ctimeMs, st.mtimeMs, st.ino, st.ctimeMs >= started - RACY ? 1 : 0];
    next.dirs[rel] = now;
    // A folder listed again only because it was too young to vouch, and found as it was
    // (the seconds after a checkout or a commit): nothing to write back for it.
    if (!before || now.some((v, i) => v !== before[i])) changed = true;
    for (const entry of readdirSync(at(rel), { withFileTypes: true })) {
      const name = entry.name;
      if (entry.isDirectory() && sub?.test(name)) {
        visit(`${rel}${name}/`, sub === MONTH ? DAY : undefined);
        continue;
      }
      const f = `${rel}${name}`;
      if (!name.endsWith('.md') || name.startsWith('.') || !itemKind(f)) continue;
      const fst = lstat(at(f));
      // Unchanged since the folder was last seen, and not kept then: a closed handoff.
      if (before && fst && fst.ctimeMs < before[0] && !stored!.files[f] && fst.isFile()) continue;
      look(f, fst);
    }
    if (!changed) {
      for (const f of keptIn.get(rel) ?? []) if (!(f in next.files)) changed = true;
      for (const d of children.get(rel) ?? []) if (!(d in next.dirs)) changed = true;
    }
  };
  for (const prefix of [PINS_PREFIX, HANDOFFS_PREFIX])
    await assertInside(root, path.join(root, prefix), prefix.slice(0, -1));
  visit(PINS_PREFIX, undefined);
  visit(HANDOFFS_PREFIX, MONTH);

  /** The bodies this run parsed: its tree shows them without reading the files again. */
  const bodies = new Map<string, string>();
  if (toRead.length > 0) {
    const parsed = new Map<string, CachedItem>();
    const unknown = toRead.filter((f) => {
      const item = f.text === undefined ? undefined : known?.(f.path, f.text);
      if (item) parsed.set(f.path, item);
      return !item;
    });
    if (unknown.length > 0)
      parseTree(
        unknown,
        { get: () => undefined, set: (key, item) => parsed.set(key.slice(0, key.indexOf('\0')), item) },
        await loadParsers(toParse(unknown)),
      );
    for (const f of toRead) {
      // Not parsed: over the size limit (parseTree refuses it before it is a cache key).
      const large = parsed.get(f.path) === undefined;
      const item = parsed.get(f.path) ?? { problem: { message: tooLarge(Buffer.byteLength(f.text ?? '')) } };
      const st = lstat(at(f.path));
      const open = itemKind(f.path) === 'pin' || item.problem || (item.meta as { status?: string }).status === 'open';
      if (!open || !st) continue;
      let keptItem = item;
      if (itemKind(f.path) === 'handoff' && item.body !== undefined) {
        const { body, ...rest } = item;
        bodies.set(f.path, body);
        keptItem = rest;
      }
      const young = st.ctimeMs >= started - RACY && !large && f.text !== undefined;
      next.files[f.path] = { st: stat(st), item: keptItem, ...(young ? { hash: textHash(f.text!) } : {}) };
    }
  }
  if (changed && file)
    await writeDisposable(file, JSON.stringify({ format: FORMAT, version: toolVersion(), ...packOpen(next) }));
  const kept = Object.entries(next.files);
  const items = new Map(kept.map(([f, k]) => [f, k.item]));
  return parseTree(
    kept.map(([f]) => ({ path: f, blob: 'open', laterBody: () => bodies.get(f) ?? bodyOf(f) })),
    { get: (key) => items.get(key.slice(0, key.indexOf('\0'))), set: () => {} },
  );
}

/**
 * A young file's text as kept (cyrb53, 53 bits): it is compared only once the file's stat
 * data matched to the fraction of a millisecond and the byte, so it tells apart edits made within one
 * clock tick, at the same size; and a session start loads no node:crypto for it.
 */
export function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
