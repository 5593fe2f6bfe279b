// The closed handoffs' names a writer's view of the history holds (history-view.ts), kept
// folder by folder as folder-names.ts gives them: a year's ids counted, put in order and
// searched without being cut into tens of thousands of strings; a folder's names are cut
// only when an id in it is asked about (a parent, a short id, the newest). Pure.
import { placeIn, sortedIndex, type Place } from './id.js';
import type { Names } from './folder-names.js';
import { namesKey } from './names-pack.js';

/** One folder's closed ids, ascending; each run's first comes after the last of the one before. */
interface Run {
  folder: string;
  count: number;
  first: string;
  last: string;
  ids: () => readonly string[];
}

export interface ClosedNames {
  runs: Run[];
  /** How many there are. */
  count: number;
  /** Each folder's, by folder (none empty): what a writer's record compares (git-hooks/record-next.ts). */
  folders: ReadonlyMap<string, Names>;
}

/** The same id in two folders (the first layout's flat folder and a dated one): the whole tree decides. */
export class Duplicate extends Error {}

const run = (folder: string, ids: readonly string[]): Run => ({
  folder,
  count: ids.length,
  first: ids[0]!,
  last: ids[ids.length - 1]!,
  ids: () => ids,
});

/**
 * The closed names in `folders` (in the order listed: dated folders by date), each folder's
 * from `names`, less those the open index holds (`known`, by folder); throws Duplicate.
 */
export function closedNames(
  folders: readonly string[],
  names: ReadonlyMap<string, Names>,
  known: ReadonlyMap<string, ReadonlySet<string>>,
): ClosedNames {
  const runs: Run[] = [];
  const byFolder = new Map<string, Names>();
  let sorted = true;
  for (const folder of folders) {
    let these = names.get(folder);
    if (!these || these.count === 0) continue; // gone since it was listed, or empty
    const skip = known.get(folder);
    if (skip) {
      const ids = these.all().filter((id) => !skip.has(id));
      if (ids.length === 0) continue;
      these = { count: ids.length, first: ids[0], last: ids[ids.length - 1], all: () => ids, key: () => namesKey(ids) };
    }
    byFolder.set(folder, these);
    const next: Run = { folder, count: these.count, first: these.first!, last: these.last!, ids: these.all };
    // Ids are times and folders come by date: in order already, unless the flat folder holds some.
    if (runs.length > 0 && next.first <= runs[runs.length - 1]!.last) sorted = false;
    runs.push(next);
  }
  return {
    ...(sorted ? { runs, count: runs.reduce((n, r) => n + r.count, 0) } : resorted(runs)),
    folders: byFolder,
  };
}

/** Every id sorted, in runs of one folder each. */
function resorted(runs: readonly Run[]): Omit<ClosedNames, 'folders'> {
  const all = runs.flatMap((r) => r.ids().map((id) => [id, r.folder] as const));
  all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Run[] = [];
  let ids: string[] = [];
  for (const [i, [id, folder]] of all.entries()) {
    if (i > 0 && all[i - 1]![0] === id) throw new Duplicate();
    ids.push(id);
    if (all[i + 1]?.[1] !== folder) {
      out.push(run(folder, ids));
      ids = [];
    }
  }
  return { runs: out, count: all.length };
}

/** The run `id` falls in or before: the first whose last is not below it (runs.length: after them all). */
function runAt(list: ClosedNames, id: string): number {
  let lo = 0;
  let hi = list.runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list.runs[mid]!.last < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The file of a closed handoff by its id. */
export function fileOf(list: ClosedNames, id: string): string | undefined {
  const r = list.runs[runAt(list, id)];
  if (!r || id < r.first) return undefined;
  const ids = r.ids();
  return ids[sortedIndex(ids, id)] === id ? `${r.folder}${id}.md` : undefined;
}

/** Where `id` stands among the closed ids (id.ts prefixLookupIn). */
export function placeOf(list: ClosedNames, id: string): Place {
  const k = runAt(list, id);
  const r = list.runs[k];
  const before = list.runs[k - 1]?.last;
  if (!r || id < r.first) return { here: false, before, after: r?.first };
  const p = placeIn(r.ids(), id);
  return { here: p.here, before: p.before ?? before, after: p.after ?? list.runs[k + 1]?.first };
}

/** The files of the newest `n`, oldest first. */
export function newest(list: ClosedNames, n: number): string[] {
  const out: string[] = [];
  for (let k = list.runs.length - 1; k >= 0 && out.length < n; k--) {
    const r = list.runs[k]!;
    const ids = r.ids();
    for (let i = ids.length - 1; i >= 0 && out.length < n; i--) out.push(`${r.folder}${ids[i]}.md`);
  }
  return out.reverse();
}
