// The tree `git add -A .handoff` would stage, computed in process from the index's entries
// and the work tree's item files as a writer just read them, pure: what validated.ts
// records after a writer that read every file. The folders where nothing differs from the
// index take the tree id the index keeps for them (git's cache-tree, git/index-file.ts
// cachedTreesUnder), so that closing a few handoffs hashes the few folders they are in,
// not the year's.
import type { IndexEntry } from '../git/git-plumbing.js';
import { CONFIG_PATH, HANDOFF_DIR, itemKind } from '../store/tree.js';
import { treeOfFiles } from './tree-edit.js';

/**
 * The id `git add -A .handoff` then `git write-tree --prefix=.handoff/` would give, without
 * staging a year's handoffs: the index's entries under .handoff/ but the item files, which
 * are the work tree's as just read (`read`: every one, by blob id), the roadmap as rendered
 * and config.yml as this run read it. Undefined when that is not known here (a conflict
 * in the index, a file not read, an id not SHA-1's): the caller stages instead. Another
 * file of .handoff/ changed in the work tree and not staged makes an id the hook will not
 * see staged, so it validates that commit itself: never a wrong record, as every item,
 * the roadmap and the config in the id are the ones this run found clean. `trees`: the
 * ids the index keeps for .handoff/ ('') and its folders (by their path inside it), read
 * from the same index as `entries`; a folder where an item file, the roadmap or config.yml
 * differs from its entry (its mode or blob), or is added or gone, is computed instead.
 */
export function stagedTree(
  entries: readonly IndexEntry[],
  read: ReadonlyMap<string, string | undefined>,
  roadmap: string,
  roadmapBlob: string,
  config: string | undefined,
  trees: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const prefix = `${HANDOFF_DIR}/`;
  const files = new Map<string, { mode: string; id: string }>();
  const modes = new Map<string, string>();
  // The index's mode and blob of each path set below (a conflict's stages: never a match).
  const indexed = new Map<string, string>();
  for (const e of entries) {
    if (!e.path.startsWith(prefix)) return undefined;
    // The work tree's: its item files (almost every entry: asked of `read` first), the roadmap and config.yml.
    if (read.has(e.path) || itemKind(e.path) !== undefined || e.path === roadmap || e.path === CONFIG_PATH) {
      if (e.mode === '100755') modes.set(e.path, e.mode); // the executable bit the index holds (the file's mode is not read here)
      indexed.set(e.path, e.stage === '0' && !indexed.has(e.path) ? `${e.mode} ${e.id}` : '');
      continue;
    }
    if (e.stage !== '0') return undefined;
    files.set(e.path.slice(prefix.length), e);
  }
  // Folders (inside .handoff/, '' itself) where the tree differs from the index's.
  const changed = new Set<string>();
  const differs = (file: string) => {
    for (let at = file.lastIndexOf('/'); at >= 0; at = file.lastIndexOf('/', at - 1)) {
      const folder = file.slice(0, at);
      if (changed.has(folder)) return;
      changed.add(folder);
    }
    changed.add('');
  };
  const set = (file: string, id: string | undefined) => {
    const rel = file.slice(prefix.length);
    const mode = modes.get(file) ?? '100644';
    files.set(rel, { mode, id: id ?? '' });
    if (indexed.get(file) !== `${mode} ${id}`) differs(rel);
    indexed.delete(file);
    return id !== undefined;
  };
  for (const [file, blob] of read) if (!set(file, blob)) return undefined;
  if (config !== undefined) set(CONFIG_PATH, config);
  set(roadmap, roadmapBlob);
  // In the index and not in the tree: an item file gone from the work tree, config.yml removed.
  for (const file of indexed.keys()) differs(file.slice(prefix.length));
  return treeOfFiles(files, (folder) => (changed.has(folder) ? undefined : trees.get(folder)));
}
