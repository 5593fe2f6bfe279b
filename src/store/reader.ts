// The one reader of .handoff/: the working tree's item files, and the parse step every
// source (the working tree, the index, a commit, a three-way merge) goes through, with
// the one cache. Pure parsing is tree.ts's; this is the I/O.
//
// Synchronous reads on purpose: for 1,000+ small files, fs.promises pays a FileHandle,
// four thread-pool round trips and their garbage per file (much of `handoff roadmap`'s
// time and garbage at a thousand files); readFileSync reads each directly.
import type { Stats } from 'node:fs';
import { splitFrontMatter } from './split.js';
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { openCache, type OpenCache } from './cache.js';
import {
  HANDOFFS_PREFIX,
  NOT_A_FILE,
  ITEM_MAX_BYTES,
  parseTree,
  toParse,
  PINS_PREFIX,
  SYMLINK_REFUSED,
  tooLarge,
  cacheKey,
  blobId,
  kept,
  type CachedItem,
  type ParseCache,
  type Parsers,
  type Tree,
  type TreeFile,
} from './tree.js';
import { assertInside } from '../security/guard.js';
import { loadParsers } from './parsers.js';

// Taken, not imported: see store/fs.ts.
const { lstatSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

/**
 * The item files of a directory, and why one is not read: a symbolic link is never
 * followed (it could point outside the repository), and a directory (or a submodule)
 * named like an item is reported, not read.
 */
export function listItemFiles(dir: string): Array<{ name: string; refused?: string }> {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.name.endsWith('.md') && !d.name.startsWith('.'))
      .map((d) =>
        d.isSymbolicLink()
          ? { name: d.name, refused: SYMLINK_REFUSED }
          : d.isFile()
            ? { name: d.name }
            : { name: d.name, refused: NOT_A_FILE },
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Sub-folders of `dir` whose names match `pattern`, sorted; links are never followed. */
export function folders(dir: string, pattern: RegExp): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && pattern.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

export const MONTH = /^\d{4}-\d{2}$/;
export const DAY = /^\d{2}$/;

/** The folders that hold item files, repository-relative with a trailing slash: pins/, handoffs/ and its dated folders. */
export function itemFolders(root: string): string[] {
  const out = [PINS_PREFIX, HANDOFFS_PREFIX];
  for (const month of folders(path.join(root, HANDOFFS_PREFIX), MONTH))
    for (const day of folders(path.join(root, HANDOFFS_PREFIX, month), DAY))
      out.push(`${HANDOFFS_PREFIX}${month}/${day}/`);
  return out;
}

/** Stat data younger than this may not show a change made in the same clock tick (git calls such entries racy). */
export const RACY_MS = 2000;

const stampOf = (s: Stats) => `${s.ctimeMs}:${s.mtimeMs}:${s.size}:${s.ino}`;

/**
 * The item files of the working tree; refused when a directory leads outside the
 * repository. Like git's index, a file is known by its stat data: one the cache knows by
 * it is not read at all. A file whose stat data is too young to vouch for it is keyed by
 * its text (the cache stores it under the text's blob id), and one whose stat data changed
 * while it was read is too.
 */
export async function readWorkTree(root: string, cache?: ParseCache): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  const racy = Date.now() - RACY_MS;
  for (const prefix of itemFolders(root)) {
    const dir = path.join(root, prefix);
    await assertInside(root, dir, prefix.slice(0, -1));
    // The folder joined once: its files' names hold no separator.
    const inDir = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const { name, refused } of listItemFiles(dir)) {
      const rel = `${prefix}${name}`;
      if (refused) files.push({ path: rel, refused });
      else readItemFile(inDir + name, rel, racy, files, cache);
    }
  }
  return files;
}

/**
 * Some item files of the working tree, as readWorkTree reads each (a file not there is left
 * out): what a writer's roadmap needs of the history (store/history-view.ts).
 */
export function readSomeFiles(root: string, rels: readonly string[], cache?: ParseCache): TreeFile[] {
  const files: TreeFile[] = [];
  const racy = Date.now() - RACY_MS;
  // Joined by hand, as open-index.ts joins: each rel is one of our item paths, with nothing
  // for path.join to normalize, and it would, character by character, for hundreds of them.
  for (const rel of rels) readItemFile(`${root}/${rel}`, rel, racy, files, cache);
  return files;
}

/**
 * A work-tree file as read: its body is read again when asked for (the cache keeps no
 * closed handoff's body), by a method all of them share.
 */
class WorkTreeFile implements TreeFile {
  text?: string;
  blob?: string;
  stamp?: string;
  cached?: CachedItem;
  constructor(
    readonly path: string,
    private readonly full: string,
  ) {}
  laterBody(): string {
    try {
      return splitFrontMatter(readFileSync(this.full, 'utf8'), this.path).body;
    } catch {
      return '';
    }
  }
}

function readItemFile(full: string, rel: string, racy: number, files: TreeFile[], cache?: ParseCache): void {
  try {
    const before = lstatSync(full);
    if (before.isSymbolicLink()) return void files.push({ path: rel, refused: SYMLINK_REFUSED });
    if (!before.isFile()) return void files.push({ path: rel, refused: NOT_A_FILE });
    // A file over the limit is refused by its size, without reading it.
    if (before.size > ITEM_MAX_BYTES) return void files.push({ path: rel, refused: tooLarge(before.size) });
    const f = new WorkTreeFile(rel, full);
    const stamp = stampOf(before);
    if (before.ctimeMs < racy) {
      f.stamp = stamp;
      const known = cache?.stat ? cache.stat(rel, stamp) : cache?.get(cacheKey(f));
      if (known !== undefined) {
        f.cached = known;
        if (known.blob !== undefined) f.blob = known.blob;
        return void files.push(f);
      }
    }
    f.text = readFileSync(full, 'utf8');
    const after = lstatSync(full);
    // Changed while read, or too new to vouch for the text: keyed by the text instead.
    f.stamp = after.ctimeMs < racy && stampOf(after) === stamp ? stamp : undefined;
    files.push(f);
    // Rewritten with a text the cache may know by its blob id (a checkout, a commit through
    // the pre-commit hook, `check` closing it): its entry then serves the new stat data too.
    if (f.stamp === undefined || !cache?.knows?.(rel) || f.text.length > ITEM_MAX_BYTES) return;
    const blob = blobId(f.text);
    const known = cache.get(`${rel}\0${blob}`);
    if (known === undefined) return;
    f.cached = known;
    f.blob = blob;
    cache.set(cacheKey(f), kept(f, known));
  } catch (error) {
    // Deleted between the listing and the read: it is simply not there.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Parses files of any source through the open cache, and saves it. */
export async function parseFiles(
  files: readonly TreeFile[],
  opened: OpenCache,
  cache: ParseCache = opened.cache,
  known?: Parsers,
): Promise<Tree> {
  // A file the walk found in the cache needs no parser: only the others are asked about.
  // `known`: a writer's own parse of what it wrote (writes.ts).
  const wanted = toParse(
    files.filter((f) => f.cached === undefined),
    cache,
  );
  const parsers = wanted.length > 0 ? (known ?? (await loadParsers(wanted))) : undefined;
  const tree = parseTree(files, cache, parsers);
  await opened.save();
  return tree;
}

/** The working tree's .handoff/, parsed through the cache in the git directory, and the item files it read. */
export async function readTree(
  ctx: Pick<RunContext, 'root' | 'cacheFile'>,
): Promise<{ tree: Tree; files: TreeFile[] }> {
  const opened = await openCache(ctx.cacheFile);
  const files = await readWorkTree(ctx.root, opened.cache);
  return { tree: await parseFiles(files, opened), files };
}
