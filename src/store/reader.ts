// The one reader of .handoff/: the working tree's item files, and the parse step every
// source (the working tree, the index, a commit, a three-way merge) goes through, with
// the one cache. Pure parsing is tree.ts's; this is the I/O.
//
// Synchronous reads on purpose: for 1,000+ small files, fs.promises pays a FileHandle,
// four thread-pool round trips and their garbage per file (much of `handoff roadmap`'s
// time and garbage at a thousand files); readFileSync reads each directly.
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { openCache, type OpenCache } from './cache.js';
import {
  HANDOFFS_PREFIX,
  needsParsing,
  NOT_A_FILE,
  parseTree,
  PINS_PREFIX,
  SYMLINK_REFUSED,
  type Parsers,
  type Tree,
  type TreeFile,
} from './tree.js';
import { assertInside } from '../security/guard.js';

// Taken, not imported: see store/fs.ts.
const { readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

/**
 * The item files of a directory, and why one is not read: a symbolic link is never
 * followed (it could point outside the repository), and a directory (or a submodule)
 * named like an item is reported, not read.
 */
function names(dir: string): Array<{ name: string; refused?: string }> {
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

/** The item files of the working tree, with their text; refused when a directory leads outside the repository. */
export async function readWorkTree(root: string): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  for (const prefix of [HANDOFFS_PREFIX, PINS_PREFIX]) {
    const dir = path.join(root, prefix);
    await assertInside(root, dir, prefix.slice(0, -1));
    for (const { name, refused } of names(dir)) {
      if (refused) {
        files.push({ path: `${prefix}${name}`, refused });
        continue;
      }
      try {
        files.push({ path: `${prefix}${name}`, text: readFileSync(path.join(dir, name), 'utf8') });
      } catch (error) {
        // Deleted between the listing and the read: it is simply not there.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return files;
}

/** The parsers load the YAML library (heavy to load): only when the cache misses. */
async function loadParsers(): Promise<Parsers> {
  const [{ parseHandoff }, { parsePin }] = await Promise.all([import('./handoff.js'), import('./pin.js')]);
  return { handoff: parseHandoff, pin: parsePin };
}

/** Parses files of any source through the open cache, and saves it. */
export async function parseFiles(files: readonly TreeFile[], opened: OpenCache): Promise<Tree> {
  const parsers = needsParsing(files, opened.cache) ? await loadParsers() : undefined;
  const tree = parseTree(files, opened.cache, parsers);
  await opened.save();
  return tree;
}

/** The working tree's .handoff/, parsed through the cache in the git directory, and the item files it read. */
export async function readTree(
  ctx: Pick<RunContext, 'root' | 'cacheFile'>,
): Promise<{ tree: Tree; files: TreeFile[] }> {
  const [files, opened] = await Promise.all([readWorkTree(ctx.root), openCache(ctx.cacheFile)]);
  return { tree: await parseFiles(files, opened), files };
}
