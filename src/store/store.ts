// The lookups the commands make on .handoff/, over the one reader (reader.ts), read once per
// run and patched by the run's own writes (writes.ts).
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { HandoffError } from '../core/errors.js';
import type { Handoff } from './handoff.js';
import { resolveId } from './id.js';
import type { Pin } from './pin.js';
import { readText } from './fs.js';
import { readTree } from './reader.js';
import { OPEN_FILE, readOpen } from './open-index.js';
import {
  ITEM_MAX_BYTES,
  itemKind,
  tooLarge,
  SYMLINK_REFUSED,
  type CachedItem,
  type ItemKind,
  type Problem,
  type Tree,
  type TreeFile,
  withFiles,
} from './tree.js';
import { isSymlink } from '../security/guard.js';

export interface Loaded<T> {
  items: T[];
  /** The files that could not be read; the rest still load. */
  problems: Problem[];
}

export const handoffsDir = (ctx: RunContext) => path.join(ctx.dir, 'handoffs');
export const pinsDir = (ctx: RunContext) => path.join(ctx.dir, 'pins');

type Where = Pick<RunContext, 'root' | 'cacheFile'>;

interface Read {
  tree: Tree;
  files: TreeFile[];
}

/**
 * The working tree as this run last read it, and the item files read: the loaders and the
 * roadmap share one read, and the run's own writes patch it (written) instead of every
 * file being read again.
 */
const read = new WeakMap<Where, Promise<Read>>();
/** Writes not yet applied to `read`: each file's text and what it parsed to alone, applied at once. */
const pending = new WeakMap<Where, Map<string, { one: TreeFile; parsed: Tree }>>();

function patched(ctx: Where): Promise<Read> | undefined {
  const t = read.get(ctx);
  const writes = pending.get(ctx);
  if (!t || !writes) return t;
  pending.delete(ctx);
  const applied = t.then(({ tree, files }) => ({
    tree: withFiles(tree, new Map([...writes].map(([file, w]) => [file, w.parsed]))),
    files: [...files.filter((f) => !writes.has(f.path)), ...[...writes.values()].map((w) => w.one)],
  }));
  read.set(ctx, applied);
  return applied;
}

/** Whether this run read every item file already (what a writer's roadmap then renders from). */
export function wholeTreeRead(ctx: Where): boolean {
  return read.has(ctx);
}

export function readTreeOnce(ctx: Where): Promise<Read> {
  let t = patched(ctx);
  if (!t) read.set(ctx, (t = readTree(ctx)));
  return t;
}

function tree(ctx: RunContext): Promise<Tree> {
  return readTreeOnce(ctx).then((r) => r.tree);
}

function of(tree: Tree, kind: ItemKind): Problem[] {
  return tree.problems.filter((p) => itemKind(p.file) === kind);
}

/** What a session start reads (open-index.ts): the pins, the open handoffs and unreadable files, not the history. */
const opened = new WeakMap<RunContext, Promise<Tree>>();

export function loadOpen(ctx: RunContext): Promise<Tree> {
  const full = patched(ctx);
  if (full) return full.then((r) => openPart(r.tree));
  return opened.get(ctx) ?? readOpenIndex(ctx);
}

/** The open index read (and brought up to date on disk) now. */
function readOpenIndex(ctx: RunContext): Promise<Tree> {
  const mine = ownWritten.get(ctx);
  // A file this run wrote is found as it was written: what it parsed to then is reused (the
  // open index reads it again, as every file changed since it was last seen).
  const known = (rel: string, text: string) => {
    const own = mine?.get(rel);
    return own?.text === text ? own.item : undefined;
  };
  const t = readOpen(ctx.root, ctx.cacheFile && path.join(path.dirname(ctx.cacheFile), OPEN_FILE), known);
  opened.set(ctx, t);
  return t;
}

function openPart(t: Tree): Tree {
  return { ...t, handoffs: t.handoffs.filter((h) => h.meta.status === 'open') };
}

/** Every handoff, oldest first (ids are times), as read through the cache: no YAML document, see reread. */
export async function loadHandoffs(ctx: RunContext): Promise<Loaded<Handoff>> {
  const t = await tree(ctx);
  return { items: t.handoffs, problems: of(t, 'handoff') };
}

/** Every pin, as the open index keeps them (open-index.ts): no handoff is read for them. */
export async function loadPins(ctx: RunContext): Promise<Loaded<Pin>> {
  const t = await loadOpen(ctx);
  return { items: t.pins, problems: of(t, 'pin') };
}

/** The handoff that `new`, `resume`, `done` and the hooks continue: the newest open one on the branch. */
export async function findOpenOnBranch(
  ctx: RunContext,
  branch: string | null,
): Promise<{ found?: Handoff; problems: Problem[] }> {
  const t = await loadOpen(ctx);
  const items = t.handoffs;
  const problems = of(t, 'handoff');
  const found = items.findLast((h) => h.meta.status === 'open' && h.meta.branch === branch);
  return { ...(found ? { found } : {}), problems };
}

/**
 * Writers change front-matter through its YAML document, so a person's comments and key
 * order survive: the one file they edit is read again and parsed in full, never taken
 * from the cache.
 */
export async function reread<T extends Handoff | Pin>(ctx: RunContext, item: T): Promise<T> {
  const text = await rereadText(ctx, item);
  if (itemKind(item.file) === 'pin') return (await import('./pin.js')).parsePin(text, item.file) as T;
  return (await import('./handoff.js')).parseHandoff(text, item.file) as T;
}

/** The text reread parses: the file as it is now, refused as a link or over the size limit. */
export async function rereadText(ctx: RunContext, item: { file: string }): Promise<string> {
  const full = path.resolve(ctx.root, item.file);
  if (await isSymlink(full)) throw new HandoffError(`${item.file}: ${SYMLINK_REFUSED}`);
  const text = (await readText(full)) ?? '';
  const bytes = Buffer.byteLength(text);
  if (bytes > ITEM_MAX_BYTES) throw new HandoffError(`${item.file}: ${tooLarge(bytes)}`);
  return text;
}

/** Prints each problem as a warning; returns whether there were any. */
export function warnProblems(ctx: RunContext, problems: readonly Problem[]): boolean {
  for (const p of problems) ctx.stderr(`handoff: warning: skipped ${p.file}: ${p.message}`);
  return problems.length > 0;
}

function findById<T extends { meta: { id: string } }>(
  items: readonly T[],
  query: string,
  kind: ItemKind,
  problems: readonly Problem[] = [],
): T {
  try {
    const id = resolveId(
      query,
      items.map((i) => i.meta.id),
      kind,
    );
    return items.find((i) => i.meta.id === id)!;
  } catch (error) {
    // A file that failed to parse may be the one asked for: say so rather than "no match".
    const broken = problems.find((p) => path.posix.basename(p.file).startsWith(query.toLowerCase()));
    if (broken) throw new HandoffError(`${broken.file}: ${broken.message}`);
    throw error;
  }
}

/** findById, and an id of the other kind (a pin given to `show`) is named for what it is. */
export async function findItem<T extends { meta: { id: string } }>(
  ctx: RunContext,
  items: readonly T[],
  query: string,
  kind: ItemKind,
  problems: readonly Problem[] = [],
): Promise<T> {
  try {
    return findById(items, query, kind, problems);
  } catch (error) {
    const q = query.trim().toLowerCase();
    if (!(error instanceof HandoffError) || q === '' || items.some((i) => i.meta.id.startsWith(q))) throw error;
    const others = kind === 'handoff' ? (await loadPins(ctx)).items : (await loadHandoffs(ctx)).items;
    if (!others.some((o) => o.meta.id.startsWith(q))) throw error;
    throw new HandoffError(
      kind === 'handoff'
        ? `'${query}' is a pin, not a handoff (handoff pins lists pins; handoff list lists handoffs)`
        : `'${query}' is a handoff, not a pin (handoff show ${query} prints it; handoff pins lists pins)`,
    );
  }
}

/** What this run wrote, by repository-relative path: the text, whether it parsed without a problem, and whether the open index keeps it. */
const ownWritten = new WeakMap<Where, Map<string, OwnWrite>>();
export interface OwnWrite {
  text: string;
  /** What it parsed to alone (writes.ts parses every file it writes). */
  item: CachedItem | undefined;
  clean: boolean;
  open: boolean;
}

export function ownWrites(ctx: Where): ReadonlyMap<string, OwnWrite> {
  return ownWritten.get(ctx) ?? new Map();
}

/**
 * A write of this run (writes.ts): the next read sees it, the open index is read again, and
 * takes it in when the command is over.
 */
export function wrote(ctx: RunContext, one: TreeFile, parsed: Tree, own: OwnWrite): void {
  opened.delete(ctx);
  let mine = ownWritten.get(ctx);
  if (!mine) ownWritten.set(ctx, (mine = new Map()));
  mine.set(one.path, own);
  // A run that read the whole tree sees its writes in it, each file given by its text as a
  // file just written is read: every other file of a year's handoffs is not read again.
  if (read.has(ctx)) {
    let writes = pending.get(ctx);
    if (!writes) pending.set(ctx, (writes = new Map()));
    writes.set(one.path, { one, parsed });
  }
  openAtExit(ctx);
}

const toRefresh = new Set<RunContext>();

/**
 * The open index takes the run's writes in once, when the command is over, while the
 * parsers are loaded: the next session start parses nothing (a run that closes fifty
 * landed handoffs looked at every dated folder fifty times). A run that read the open
 * index after its last write brought it up to date already.
 */
function openAtExit(ctx: RunContext): void {
  if (toRefresh.size === 0)
    process.once('beforeExit', () => {
      const runs = [...toRefresh];
      toRefresh.clear();
      for (const run of runs) if (!opened.has(run)) readOpenIndex(run).catch(() => {});
    });
  toRefresh.add(ctx);
}
