// Which handoffs `check` found whole at their head commit (the commit there, and every file
// listed as committed in it), remembered in `<git dir>/handoff-heads.json` by what the cache
// knows each file by (store/cache.ts): its stat data, or the blob id of its text when the
// stat data is too young to vouch for it. The same text names the same commit and files,
// and a commit's files never change, so the next run asks git only about the handoffs
// written, edited or checked out since (a year of handoffs' committed files was seconds of
// git's time at every check). Only what was found is kept, and only for the handoffs there
// now. Not seen again until the file changes: a head rebased away and pruned after it was
// found. A different tool build starts afresh; any failure to read or write the file is
// ignored: it only saves time.
import path from 'node:path';
import { toolVersion } from '../store/cache.js';
import { readTextNow, writeDisposable } from '../store/fs.js';
import { blobId, type TreeFile } from '../store/tree.js';

export const HEADS_FILE = 'handoff-heads.json';
const FORMAT = 1;

export interface HeadsFound {
  /** Whether the handoff in this file, as read now (`key`), was found whole at its head. */
  has(file: string, key: string): boolean;
  /** Writes the handoffs found whole (file -> key), when that changed. */
  save(found: ReadonlyMap<string, string>): Promise<void>;
}

/** What a work-tree file is known by here: its stat data, else the blob id of its text; undefined when neither is at hand. */
export function fileKey(f: TreeFile): string | undefined {
  if (f.stamp !== undefined) return `s${f.stamp}`;
  const blob = f.blob ?? (f.text === undefined ? undefined : blobId(f.text));
  return blob === undefined ? undefined : `b${blob}`;
}

/** The handoffs found before, from `<git dir>/handoff-heads.json` (none when `cacheFile` is null). */
export function headsFound(cacheFile: string | null): HeadsFound {
  const file = cacheFile && path.join(path.dirname(cacheFile), HEADS_FILE);
  let known: Record<string, unknown> = {};
  try {
    const data = file ? JSON.parse(readTextNow(file) ?? 'null') : null;
    if (data?.format === FORMAT && data.version === toolVersion() && typeof data.found === 'object' && data.found)
      known = data.found;
  } catch {
    // none yet, or unreadable: git is asked about every handoff
  }
  return {
    has: (f, key) => Object.hasOwn(known, f) && known[f] === key,
    async save(found) {
      if (!file) return;
      const names = Object.keys(known);
      if (names.length === found.size && names.every((f) => found.get(f) === known[f])) return;
      const sorted = Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      await writeDisposable(file, JSON.stringify({ format: FORMAT, version: toolVersion(), found: sorted })).catch(
        () => {},
      );
    },
  };
}
