// A tree with a few files set, its id computed in process from the trees along their paths,
// in git's tree object format: a writer's record needs the id of .handoff/ with this run's
// files in it, and git would stage a year's handoffs into an index to say it. Pure: given
// the trees, the id; no object is written (the record is an id the hook compares, nothing
// reads the tree).
import type { TreeEntry } from '../git/git-plumbing.js';
import { objectId } from '../store/tree.js';

export const TREE_MODE = '40000';
const FILE_MODE = '100644';

/** The folders along `paths` (relative, '' the top), each once, the top first. */
export function foldersOf(paths: Iterable<string>): string[] {
  const folders = new Set<string>(['']);
  for (const p of paths) {
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) folders.add(p.slice(0, i));
  }
  return [...folders].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function depth(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}

/** git's order: names as bytes, a tree's name as if it ended in '/'. */
const sortKey = (e: TreeEntry): string => (e.mode === TREE_MODE ? `${e.name}/` : e.name);

/**
 * UTF-16 code units order names as their UTF-8 bytes do, but for characters from U+E000
 * up and those outside the basic plane: names with such characters are compared as bytes.
 */
const UNLIKE_BYTES = /[\ud800-\uffff]/;

const byCodeUnits = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byBytes = (a: { key: string }, b: { key: string }) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));

/** The id of a tree object holding `entries` (SHA-1 ids only). */
export function treeId(entries: readonly TreeEntry[]): string {
  const sorted = entries.map((e) => ({ e, key: sortKey(e) }));
  sorted.sort(sorted.some((k) => UNLIKE_BYTES.test(k.key)) ? byBytes : byCodeUnits);
  // One buffer, written in place: a folder holds a month's handoffs.
  const heads = sorted.map(({ e }) => `${e.mode} ${e.name}\0`);
  let size = 20 * sorted.length;
  for (const h of heads) size += Buffer.byteLength(h);
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  sorted.forEach(({ e }, i) => {
    at += body.write(heads[i]!, at, 'utf8');
    at += body.write(e.id, at, 'hex');
  });
  return objectId('tree', body);
}

/**
 * The id of the tree `trees.get('')` with each path of `files` (relative, to a blob id) set
 * as a regular file; `trees` holds every folder along those paths that exists (a missing one
 * is made). Undefined when a path crosses a file, a file would replace a folder, or an id is
 * not SHA-1's.
 */
export function editedTree(
  trees: ReadonlyMap<string, readonly TreeEntry[]>,
  files: ReadonlyMap<string, string>,
): string | undefined {
  if (!trees.has('')) return undefined;
  const folders = foldersOf(files.keys());
  const contents = new Map<string, Map<string, TreeEntry>>();
  for (const f of folders) {
    const entries = trees.get(f) ?? [];
    if (entries.some((e) => e.id.length !== 40)) return undefined;
    contents.set(f, new Map(entries.map((e) => [e.name, e])));
  }
  for (const [p, blob] of files) {
    if (!/^[0-9a-f]{40}$/.test(blob)) return undefined;
    const at = p.lastIndexOf('/');
    const name = p.slice(at + 1);
    const folder = contents.get(at < 0 ? '' : p.slice(0, at))!;
    if (folder.get(name)?.mode === TREE_MODE) return undefined;
    folder.set(name, { mode: FILE_MODE, name, id: blob });
  }
  return topId(contents);
}

/**
 * The id of the top folder ('') of `contents` (each folder's entries by name, every folder
 * along the way present): deepest first, each folder's id goes into its parent. Undefined
 * when a folder's name is a file's in its parent.
 */
function topId(contents: ReadonlyMap<string, Map<string, TreeEntry>>): string | undefined {
  for (const f of [...contents.keys()].sort((a, b) => depth(b) - depth(a))) {
    const id = treeId([...contents.get(f)!.values()]);
    if (f === '') return id;
    const at = f.lastIndexOf('/');
    const name = f.slice(at + 1);
    const parent = contents.get(at < 0 ? '' : f.slice(0, at))!;
    const was = parent.get(name);
    if (was && was.mode !== TREE_MODE) return undefined;
    parent.set(name, { mode: TREE_MODE, name, id });
  }
  return undefined;
}

/**
 * The id of the tree holding exactly `files` (relative path -> mode and blob id), every
 * folder's id computed here: what `git write-tree` gives for an index of those files. A
 * path given with a tree's mode stands for a folder whose id the caller knows (none of its
 * files given). Undefined when a name is both a file and a folder, or an id is not SHA-1's.
 */
export function treeOfFiles(files: ReadonlyMap<string, { mode: string; id: string }>): string | undefined {
  const contents = new Map<string, Map<string, TreeEntry>>([['', new Map()]]);
  const folder = (f: string): Map<string, TreeEntry> | undefined => {
    let entries = contents.get(f);
    if (entries) return entries;
    const at = f.lastIndexOf('/');
    const parent = folder(at < 0 ? '' : f.slice(0, at));
    const name = f.slice(at + 1);
    if (!parent || parent.has(name)) return undefined; // a file of that name
    contents.set(f, (entries = new Map()));
    parent.set(name, { mode: TREE_MODE, name, id: '' }); // its id once its files are in
    return entries;
  };
  for (const [p, { mode, id }] of files) {
    if (id.length !== 40) return undefined;
    const at = p.lastIndexOf('/');
    const name = p.slice(at + 1);
    const entries = folder(at < 0 ? '' : p.slice(0, at));
    if (!entries || entries.get(name)?.mode === TREE_MODE) return undefined;
    entries.set(name, { mode, name, id });
  }
  return topId(contents);
}
