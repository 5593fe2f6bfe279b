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
import { writeDisposableSync } from './fs.js';
import { RACY_MS } from './reader.js';

// Taken, not imported: see fs.ts.
const { lstatSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

export const NAMES_FILE = 'handoff-names.json';
const FORMAT = 2;

/** A folder's ctime, mtime and inode, and its item files' names less `.md` (`/` never occurs in a name) joined by `/`. */
type Entry = [ctimeMs: number, mtimeMs: number, ino: number, stems: string];

function load(file: string | null): Record<string, Entry> {
  if (!file) return {};
  try {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    if (data.format === FORMAT && typeof data.dirs === 'object' && data.dirs !== null) return data.dirs;
  } catch {
    // none yet, or unreadable: every folder is listed
  }
  return {};
}

/** What a folder lists as a handoff's file: `<name>.md` not starting with a dot (tree.ts itemKind). */
const isItemName = (name: string) => name.endsWith('.md') && !name.startsWith('.');

/**
 * The item files' names less `.md` in each of `folders` (absolute path `root/<folder>`), in
 * readdir's order; a folder gone since it was found is left out. The names of the folders listed
 * are kept in `file` for the next run (`now`: the clock, for the racy rule).
 */
export function folderNames(
  root: string,
  folders: readonly string[],
  file: string | null,
  now = Date.now(),
): Map<string, string[]> {
  const stored = load(file);
  const next: Record<string, Entry> = {};
  const out = new Map<string, string[]>();
  const racy = now - RACY_MS;
  let changed = false;
  for (const folder of folders) {
    const full = `${root}/${folder}`;
    const st = lstatSync(full, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    const before = stored[folder];
    if (before && before[0] === st.ctimeMs && before[1] === st.mtimeMs && before[2] === st.ino) {
      next[folder] = before;
      out.set(folder, before[3] === '' ? [] : before[3].split('/'));
      continue;
    }
    const names: string[] = [];
    try {
      for (const name of readdirSync(full)) if (isItemName(name)) names.push(name.slice(0, -3));
    } catch {
      continue; // gone since it was listed
    }
    out.set(folder, names);
    // Changed too recently to vouch for the listing: listed again next time.
    if (st.ctimeMs >= racy) continue;
    next[folder] = [st.ctimeMs, st.mtimeMs, st.ino, names.join('/')];
    changed = true;
  }
  if (!changed) for (const folder in stored) if (!(folder in next)) changed = true;
  if (changed && file) writeDisposableSync(file, JSON.stringify({ format: FORMAT, dirs: next }));
  return out;
}
