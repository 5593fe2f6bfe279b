// What a writer (`new`, `done`, `pin`, ...) needs of .handoff/ to refresh the roadmap and
// draft from a chain, without reading a year of closed handoffs: the open index
// (open-index.ts: pins, open handoffs, unreadable files), the names of the handoff
// files (one listing per folder, no file opened), and, read through the items cache, only
// the closed handoffs shown: the newest ones and the chains of those and of the open ones.
// The roadmap needs nothing else of the rest: their ids (for short ids, from their names)
// and how many there are.
//
// Exact wherever the open index is: a closed handoff edited in place (its folder unchanged)
// into an open or unreadable one is not seen until its folder changes, unless it is one of
// those read here, in which case the whole tree is read instead. `handoff roadmap`, `list`,
// `check` and the git hooks read every file.
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import type { Handoff } from './handoff.js';
import { openCache } from './cache.js';
import { itemFolders, parseFiles, readSomeFiles } from './reader.js';
import { datedFolder, isId, placeIn, type Place } from './id.js';
import { closedNames, Duplicate, fileOf, newest, placeOf, type ClosedNames } from './closed-names.js';
import { loadOpen } from './store.js';
import { HANDOFFS_PREFIX, type Tree } from './tree.js';
import { assertInside } from '../security/guard.js';
import { folderNames, NAMES_FILE, type Names, readAhead } from './folder-names.js';

type Where = Pick<RunContext, 'root' | 'cacheFile'>;

export interface History {
  /** Every handoff's and pin's id, for the short ids: where an id stands in each of their sorted lists (id.ts prefixLookupIn). */
  ids: ReadonlyArray<(id: string) => Place>;
  /** How many handoffs are finished or superseded. */
  finished: number;
}

/** What a view was made of, so a writer's record can check it against a tree (git-hooks/validated.ts). */
export interface ViewSources {
  /** The open index as read: pins, open handoffs, unreadable files. */
  open: Tree;
  /** The closed handoffs' names by folder (cut into names only when asked: most runs record nothing). */
  closed: ReadonlyMap<string, Names>;
  /** The closed handoffs read (and shown), by file. */
  read: string[];
}

interface Listing extends ClosedNames {
  open: Tree;
}

const namesFile = (ctx: Where) => ctx.cacheFile && path.join(path.dirname(ctx.cacheFile), NAMES_FILE);

// Taken, not imported: see fs.ts.
const { lstatSync } = process.getBuiltinModule('node:fs');

/** Names alone (no file type, no file opened; kept by folder, folder-names.ts): a link or a folder named like a handoff is the open index's problem. */
async function listing(ctx: Where): Promise<Listing> {
  const open = await loadOpen(ctx as RunContext);
  // The files the open index holds, by folder: names less `.md` are compared, no path is made per name.
  const known = new Map<string, Set<string>>();
  for (const file of [...open.handoffs, ...open.problems, ...open.misnamed].map((i) => i.file)) {
    const at = file.lastIndexOf('/') + 1;
    const folder = file.slice(0, at);
    let names = known.get(folder);
    if (!names) known.set(folder, (names = new Set()));
    names.add(file.slice(at, file.endsWith('.md') ? -3 : undefined));
  }
  // handoffs/ checked once: its dated folders are real folders (itemFolders follows no link), so inside it.
  await assertInside(ctx.root, path.join(ctx.root, HANDOFFS_PREFIX), HANDOFFS_PREFIX.slice(0, -1));
  const folders = itemFolders(ctx.root).filter((p) => p.startsWith(HANDOFFS_PREFIX));
  // Every `<name>.md` not starting with a dot in these folders is a handoff's (tree.ts itemKind).
  return { open, ...closedNames(folders, folderNames(ctx.root, folders, namesFile(ctx)), known) };
}

/**
 * Reads `files` through the items cache; undefined when one of them is not the plain closed
 * handoff the open index says it is (the caller then reads the whole tree).
 */
async function readClosed(ctx: Where, files: readonly string[]): Promise<Handoff[] | undefined> {
  if (files.length === 0) return [];
  const opened = await openCache(ctx.cacheFile);
  const tree = await parseFiles(readSomeFiles(ctx.root, files, opened.some), opened, opened.some);
  if (tree.problems.length > 0 || tree.misnamed.length > 0 || tree.handoffs.length !== files.length) return undefined;
  if (tree.handoffs.some((h) => h.meta.status === 'open')) return undefined;
  return tree.handoffs;
}

/** Reads ahead what roadmapView will read and this run's writes do not change: the folders' names as kept (folder-names.ts). */
export function prepareView(ctx: Where): void {
  readAhead(namesFile(ctx));
}

/**
 * The tree the roadmap renders, with the open handoffs, the newest `recent` closed ones and
 * the ancestors of both up to `depth` links; undefined when the whole tree must be read.
 */
export async function roadmapView(
  ctx: Where,
  recent: number,
  depth: number,
): Promise<{ tree: Tree; history: History; sources: ViewSources } | undefined> {
  let list: Listing;
  try {
    list = await listing(ctx);
  } catch (error) {
    if (error instanceof Duplicate) return undefined;
    throw error;
  }
  const { open } = list;
  const loaded = new Map<string, Handoff>();
  let wanted = newest(list, recent);
  let from: Handoff[] = open.handoffs;
  for (let level = 0; level <= depth && (wanted.length > 0 || from.length > 0); level++) {
    for (const h of from) {
      const file = h.meta.parent ? fileOf(list, h.meta.parent) : undefined;
      if (file && !loaded.has(file)) wanted.push(file);
    }
    const read = await readClosed(ctx, [...new Set(wanted)]);
    if (!read) return undefined;
    for (const h of read) loaded.set(h.file, h);
    from = read;
    wanted = [];
  }
  const byHandoffId = (a: Handoff, b: Handoff) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0);
  const tree: Tree = { ...open, handoffs: [...open.handoffs, ...loaded.values()].sort(byHandoffId) };
  const others = [...new Set([...open.handoffs.map((h) => h.meta.id), ...open.pins.map((p) => p.meta.id)])].sort();
  return {
    tree,
    history: { ids: [(id) => placeOf(list, id), (id) => placeIn(others, id)], finished: list.count },
    sources: { open, closed: list.folders, read: [...loaded.keys()] },
  };
}

/**
 * `parent` and its ancestors, newest first, for drafting from a chain: each ancestor read
 * from where its id puts it (its dated folder, or the first layout's flat folder);
 * undefined when the whole tree must be read (an ancestor not found there or in both,
 * unreadable, or open where the open index does not know it).
 */
export async function chainOf(ctx: Where, parent: Handoff): Promise<Handoff[] | undefined> {
  const open = await loadOpen(ctx as RunContext);
  const opened = new Map(open.handoffs.map((h) => [h.meta.id, h]));
  const out = [parent];
  const seen = new Set([parent.meta.id]);
  for (let id = parent.meta.parent; id && !seen.has(id); ) {
    seen.add(id);
    let next = opened.get(id);
    if (!next) {
      if (!isId(id)) return undefined;
      const dated = `${HANDOFFS_PREFIX}${datedFolder(id)}/${id}.md`;
      const flat = `${HANDOFFS_PREFIX}${id}.md`;
      const there = [dated, flat].filter((f) => exists(path.join(ctx.root, f)));
      // Missing, elsewhere (a folder that is not its date's) or in both: the whole tree decides.
      if (there.length !== 1) return undefined;
      const read = await readClosed(ctx, there);
      if (!read) return undefined;
      next = read[0]!;
    }
    out.push(next);
    id = next.meta.parent;
  }
  return out;
}

function exists(file: string): boolean {
  return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}
