// The tree `git add -A .handoff` would stage, computed in process from the index's entries
// and the work tree's item files as a writer just read them, pure: what validated.ts
// records after a writer that read every file. The folders where nothing differs from the
// index take the tree id the index keeps for them (git's cache-tree, git/index-file.ts
// cachedTreesUnder), so that closing a few handoffs hashes the few folders they are in,
// not the year's.
import type { IndexEntry } from '../git/git-plumbing.js';
import { CONFIG_PATH, HANDOFF_DIR, itemKind } from '../store/tree.js';
import { TREE_MODE, treeOfFiles } from './tree-edit.js';

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
  for (const blob of read.values()) if (blob === undefined) return undefined; // a file not read
  // Folders (inside .handoff/, '' itself) where the tree differs from the index's.
  const changed = new Set<string>();
  const differs = (file: string) => {
    for (let at = file.lastIndexOf('/'); at >= 0; at = file.lastIndexOf('/', at - 1)) {
      const folder = file.slice(prefix.length, at);
      if (changed.has(folder)) return;
      changed.add(folder);
    }
  };
  const modes = new Map<string, string>();
  /** The index's entries that are not the work tree's (nearly none). */
  const others: IndexEntry[] = [];
  let readFound = 0;
  let roadmapFound = false;
  let configFound = false;
  let previous = '';
  // One pass, a call per entry only where one differs: it runs once, over a year's entries.
  for (const e of entries) {
    const p = e.path;
    if (!p.startsWith(prefix)) return undefined;
    // The work tree's: its item files (almost every entry: asked of `read` first), the roadmap and config.yml.
    let blob: string | undefined;
    if (p === roadmap) {
      blob = roadmapBlob;
      roadmapFound = true;
    } else if (p === CONFIG_PATH) {
      blob = config;
      configFound = true;
    } else {
      blob = read.get(p);
      if (blob !== undefined) {
        if (p !== previous) readFound++;
      } else if (itemKind(p) === undefined) {
        if (e.stage !== '0') return undefined;
        others.push(e);
        continue;
      }
    }
    previous = p;
    if (e.mode === '100755') modes.set(p, e.mode); // the executable bit the index holds (the file's mode is not read here)
    // Set as a regular file with the work tree's blob: gone from the work tree, a conflict's stages, another mode or blob differ.
    if (blob === undefined || e.stage !== '0' || (e.mode !== '100644' && e.mode !== '100755') || e.id !== blob)
      differs(p);
  }
  // Not in the index: added.
  if (readFound !== read.size) {
    const indexed = new Set(entries.map((e) => e.path));
    for (const p of read.keys()) if (!indexed.has(p)) differs(p);
  }
  if (!roadmapFound) differs(roadmap);
  if (config !== undefined && !configFound) differs(CONFIG_PATH);
  const known = (folder: string) => (changed.has(folder) ? undefined : trees.get(folder));
  const top = known('');
  if (top !== undefined) return top;
  // The tree's files, but those in a folder of known id: that folder instead, as a tree.
  const files = new Map<string, { mode: string; id: string }>();
  const outer = new Map<string, string>([['', '']]);
  const outerKnown = (folder: string): string => {
    let k = outer.get(folder);
    if (k === undefined) {
      const at = folder.lastIndexOf('/');
      k = outerKnown(at < 0 ? '' : folder.slice(0, at)) || (known(folder) !== undefined ? folder : '');
      outer.set(folder, k);
    }
    return k;
  };
  // Paths come folder by folder: the folder's outermost one of known id is looked up when the folder changes.
  let dir = '\0';
  let skipped = '';
  const add = (p: string, mode: string, id: string) => {
    if (!p.startsWith(dir) || p.indexOf('/', dir.length) >= 0) {
      const at = p.lastIndexOf('/');
      dir = p.slice(0, at + 1);
      skipped = at < prefix.length ? '' : outerKnown(p.slice(prefix.length, at));
      if (skipped !== '' && !files.has(skipped)) files.set(skipped, { mode: TREE_MODE, id: known(skipped)! });
    }
    if (skipped === '') files.set(p.slice(prefix.length), { mode, id });
  };
  for (const e of others) add(e.path, e.mode, e.id);
  for (const [p, blob] of read) add(p, modes.get(p) ?? '100644', blob!);
  if (config !== undefined) add(CONFIG_PATH, modes.get(CONFIG_PATH) ?? '100644', config);
  add(roadmap, modes.get(roadmap) ?? '100644', roadmapBlob);
  return treeOfFiles(files);
}
