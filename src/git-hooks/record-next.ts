// A writer's record without staging a year's handoffs: the tree last recorded with this
// run's files set in it, recorded only when the roadmap this run rendered is that tree's.
// Pure: given what the view was made of and the last record's trees, the next record.
//
// Why it is safe. A record says "this tree id is clean". The new tree is the last one
// recorded (found clean by a reader of every file) with only files this run wrote and
// parsed clean, the roadmap it rendered, and config.yml as it was: every item in it is one
// some reader found clean. What is left to know is that the roadmap is the one this tree
// renders, and a writer's roadmap comes from a view (store/history-view.ts: the open index,
// the names of the closed handoffs, the few closed ones shown), not from the tree. So each
// record keeps beside its id what such a view of its tree is made of (`Seen`: the pins and
// open handoffs by blob, a digest of the closed handoffs' names, folder by folder), and the next tree is
// recorded only when the view this run rendered from is that of the last tree with this
// run's files in it: the same open files, byte for byte, the same closed names, and the
// closed handoffs shown the same blobs as the tree's. Anything else, or no record yet,
// records nothing: the pre-commit hook then validates the index itself.
import type { TreeEntry } from '../git/git-plumbing.js';
import type { OwnWrite } from '../store/store.js';
import { blobId, CONFIG_PATH, HANDOFF_DIR, itemKind, type Tree } from '../store/tree.js';
import { namesKey } from '../store/names-pack.js';
import { editedTree, foldersOf } from './tree-edit.js';

/** What a view of a recorded tree is made of: the pins' and open handoffs' blobs by file, and the closed handoffs' names digested (closedDigest). */
export interface Seen {
  open: Record<string, string>;
  closed: string;
}

/**
 * The digest of the closed handoffs' names, given as each folder's key (names-pack.ts
 * namesKey: the packed names, as the writer's listing keeps them, so a year of names is
 * never cut into strings for it); a folder with none left out.
 */
export function closedDigest(keys: ReadonlyMap<string, string>): string {
  const lines: string[] = [];
  for (const [folder, key] of keys) if (key !== '') lines.push(`${folder}\0${key}`);
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

/** What a view of a tree read whole and found clean is made of; undefined when an open file's blob is not known. */
export function seenOfTree(tree: Tree, blobs: ReadonlyMap<string, string | undefined>): Seen | undefined {
  // What the open index keeps: every pin, the open handoffs. A closed one is only a name here.
  const open: Record<string, string> = {};
  const closed = new Map<string, string[]>();
  const keep = (file: string): boolean => {
    const blob = blobs.get(file);
    if (blob === undefined || !/^[0-9a-f]+$/.test(blob)) return false;
    open[file] = blob;
    return true;
  };
  for (const p of tree.pins) if (!keep(p.file)) return undefined;
  let folder = '';
  let names: string[] = [];
  for (const h of tree.handoffs) {
    const file = h.file;
    if (h.meta.status === 'open') {
      if (!keep(file)) return undefined;
      continue;
    }
    const at = file.lastIndexOf('/') + 1;
    // In id order a dated folder's handoffs come one after another: its list is looked up once.
    if (at !== folder.length || !file.startsWith(folder)) {
      folder = file.slice(0, at);
      names = closed.get(folder) ?? [];
      closed.set(folder, names);
    }
    names.push(file.slice(at, file.endsWith('.md') ? -3 : undefined));
  }
  const keys = new Map([...closed].map(([folder, names]) => [folder, namesKey(names.sort())]));
  return { open, closed: closedDigest(keys) };
}

export function formatSeen(seen: Seen): string {
  return JSON.stringify({ open: seen.open, closed: seen.closed });
}

export function parseSeen(line: string | undefined): Seen | undefined {
  try {
    const data = JSON.parse(line ?? '');
    if (typeof data?.closed !== 'string' || typeof data.open !== 'object' || data.open === null) return undefined;
    const open: Record<string, string> = {};
    for (const [file, blob] of Object.entries(data.open)) {
      if (typeof blob !== 'string') return undefined;
      open[file] = blob;
    }
    return { open, closed: data.closed };
  } catch {
    return undefined;
  }
}

/** What this run's view was made of, each file given by the blob of its text as read after the render. */
export interface ViewSeen {
  /** Pins and open handoffs. */
  open: ReadonlyMap<string, string>;
  /** The closed handoffs' names, by folder (history-view.ts). */
  closed: ReadonlyMap<string, { all(): readonly string[]; key(): string }>;
  /** The closed handoffs read and shown. */
  read: ReadonlyMap<string, string>;
}

/** A file's name less `.md`: a handoff's id. */
const nameOf = (file: string) => file.slice(file.lastIndexOf('/') + 1, file.endsWith('.md') ? -3 : undefined);

const inside = (file: string) => (file.startsWith(`${HANDOFF_DIR}/`) ? file.slice(HANDOFF_DIR.length + 1) : undefined);

/** The folders (relative to .handoff/) whose trees `nextRecord` needs: along this run's files, the closed ones shown, the roadmap and config.yml. */
export function foldersNeeded(own: Iterable<string>, view: ViewSeen, roadmap: string): string[] {
  const files = [...own, ...view.read.keys(), roadmap, CONFIG_PATH].map(inside);
  return foldersOf(files.filter((f): f is string => f !== undefined));
}

/**
 * The next record: the last tree (`trees`: its folders, relative to .handoff/) with this
 * run's files and the roadmap set; undefined unless the view is that tree's (the top of
 * this file).
 */
export function nextRecord(input: {
  last: Seen;
  trees: ReadonlyMap<string, readonly TreeEntry[]>;
  own: ReadonlyMap<string, OwnWrite>;
  view: ViewSeen;
  roadmap: { file: string; blob: string };
  /** The blob of config.yml in the work tree, which this run read. */
  config: string | undefined;
}): { tree: string; seen: Seen } | undefined {
  const { last, trees, own, view, roadmap } = input;
  const entry = (file: string): TreeEntry | undefined => {
    const rel = inside(file);
    if (rel === undefined) return undefined;
    const at = rel.lastIndexOf('/');
    return trees.get(at < 0 ? '' : rel.slice(0, at))?.find((e) => e.name === rel.slice(at + 1));
  };
  const regular = (e: TreeEntry | undefined) => e !== undefined && (e.mode === '100644' || e.mode === '100755');
  const edits = new Map<string, string>();
  const open = new Map(Object.entries(last.open));
  const closedBefore: string[] = [];
  for (const [file, w] of own) {
    const rel = inside(file);
    if (!w.clean || itemKind(file) === undefined || rel === undefined || file === roadmap.file) return undefined;
    const blob = blobId(w.text);
    edits.set(rel, blob);
    // Closed in the last tree: a handoff there that was not open.
    if (regular(entry(file)) && !(file in last.open)) closedBefore.push(file);
    open.delete(file);
    if (w.open) open.set(file, blob);
  }
  // The pins and open handoffs: the last tree's with this run's files, byte for byte.
  if (open.size !== view.open.size) return undefined;
  for (const [file, blob] of view.open) if (open.get(file) !== blob) return undefined;
  // The closed names: the last tree's are this view's with this run's files taken out and
  // those it found closed put back, which changes only the folders of this run's files.
  const closed = new Map([...view.closed].map(([folder, names]) => [folder, names.key()]));
  const before = new Map(closed);
  for (const folder of new Set([...own.keys()].map((f) => f.slice(0, f.lastIndexOf('/') + 1)))) {
    const names = new Set(view.closed.get(folder)?.all());
    for (const f of own.keys()) if (f.startsWith(folder) && !f.includes('/', folder.length)) names.delete(nameOf(f));
    for (const f of closedBefore) if (f.startsWith(folder) && !f.includes('/', folder.length)) names.add(nameOf(f));
    before.set(folder, namesKey([...names].sort()));
  }
  if (closedDigest(before) !== last.closed) return undefined;
  // The closed handoffs shown: the tree's blobs.
  for (const [file, blob] of view.read) {
    const w = own.get(file);
    if (w ? blobId(w.text) !== blob : !regular(entry(file)) || entry(file)!.id !== blob) return undefined;
  }
  const config = entry(CONFIG_PATH);
  if (config ? config.mode !== '100644' || config.id !== input.config : input.config !== undefined) return undefined;
  const rel = inside(roadmap.file);
  if (rel === undefined) return undefined;
  edits.set(rel, roadmap.blob);
  const tree = editedTree(trees, edits);
  if (tree === undefined) return undefined;
  return { tree, seen: { open: Object.fromEntries(open), closed: closedDigest(closed) } };
}
