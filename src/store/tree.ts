// The .handoff/ tree as data: a list of (repository-relative path, text) pairs, whether
// they come from the working tree, the index, a commit, or a three-way merge of commits.
// The roadmap, the pre-commit hook, the merge driver and `handoff check` all read
// through here, so the same files give the same result whatever their source.
import { FileFormatError, HandoffError } from '../core/errors.js';
import type { Handoff, HandoffMeta } from './handoff.js';
import { toItem } from './read-handoff.js';
import type { Pin, PinMeta } from './pin.js';

export const HANDOFF_DIR = '.handoff';
export const HANDOFFS_PREFIX = `${HANDOFF_DIR}/handoffs/`;
export const PINS_PREFIX = `${HANDOFF_DIR}/pins/`;
export const CONFIG_PATH = `${HANDOFF_DIR}/config.yml`;

/** The one refusal for a symbolic link under .handoff/, whichever source it was read from. */
export const SYMLINK_REFUSED =
  'is a symbolic link; expected a regular file (a link could point outside the repository)';

/** A directory (or a submodule) where an item file belongs. */
export const NOT_A_FILE = 'is a directory; expected a regular file';

/**
 * The most a handoff or pin file may hold. A handoff is a page of prose and a pin a sentence;
 * without a limit one committed file of megabytes costs every session start its parse, its
 * redaction and its hash for the cache key.
 */
export const ITEM_MAX_BYTES = 1024 * 1024;

/** The one refusal for a file over ITEM_MAX_BYTES, whichever source it was read from. */
export function tooLarge(bytes: number): string {
  return `is ${bytes} bytes; expected at most ${ITEM_MAX_BYTES} (1 MiB) for a handoff or pin`;
}

/** The size of a text in UTF-8 bytes, counted only when it could be over the limit. */
function overLimit(text: string): number | undefined {
  if (text.length * 3 <= ITEM_MAX_BYTES) return undefined;
  const bytes = Buffer.byteLength(text);
  return bytes > ITEM_MAX_BYTES ? bytes : undefined;
}

/** The one refusal for an item whose id is not its file name. */
function misnamedMessage(id: string): string {
  return `id '${id}' does not match the file name; expected ${id}.md`;
}

/** How a symbolic link (git mode 120000) is marked in a path -> blob map: never read, refused. */
export const LINK_PREFIX = 'link:';

export interface TreeFile {
  /** Repository-relative, with forward slashes. */
  path: string;
  /** The content; may be left out when `blob` is given and the cache knows that blob. */
  text?: string;
  /**
   * The git blob id, from the index or a commit; for a work-tree file known by its stat
   * data, the one the cache remembers beside it (its key stays the stat data).
   */
  blob?: string;
  /** Why the file was not read at all (a symbolic link in the work tree): reported, never parsed. */
  refused?: string;
  /**
   * A work-tree file's stat data (ctime, mtime, size, inode), its key in the cache when the
   * file is not too new for it to vouch for its content (reader.ts), as git's index does.
   */
  stamp?: string;
  /** A work-tree file's body, read again when asked: the cache keeps no closed handoff's body (see kept). */
  laterBody?: () => string;
  /** What the cache gave for this file when the reader looked it up by its stat data: one lookup per file. */
  cached?: CachedItem;
}

/** What could not be read, whatever the source: a repository-relative file, its line when known, and why. */
export interface Problem {
  file: string;
  message: string;
  line?: number;
}

export interface Tree {
  handoffs: Handoff[];
  pins: Pin[];
  problems: Problem[];
  /** Items whose id does not match their file name: kept for `check`, left out of the lists above. */
  misnamed: Array<Handoff | Pin>;
}

export type ItemKind = 'handoff' | 'pin';

/**
 * Where a handoff is kept: `handoffs/YYYY-MM/DD/<id>.md`, the day its id was made (UTC).
 * A commit then rewrites one small folder, not one listing every handoff ever written
 * (git stores each version of a changed folder whole). `handoffs/<id>.md`, the first
 * layout, is read as well: `handoff migrate` moves such files.
 */
export const DATED_FOLDER = /^\d{4}-\d{2}\/\d{2}\/$/;

/** Which kind of item a path holds, if any: `<name>.md` in pins/, in handoffs/ or in a dated folder of it. */
export function itemKind(path: string): ItemKind | undefined {
  if (!path.endsWith('.md')) return undefined;
  const inDir = (prefix: string, dated: boolean) => {
    if (!path.startsWith(prefix)) return false;
    let rest = path.slice(prefix.length);
    if (dated && rest.length > 11 && DATED_FOLDER.test(rest.slice(0, 11))) rest = rest.slice(11);
    return !rest.includes('/') && !rest.startsWith('.');
  };
  if (inDir(HANDOFFS_PREFIX, true)) return 'handoff';
  if (inDir(PINS_PREFIX, false)) return 'pin';
  return undefined;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The message of a file-format error without the "file: " prefix it already carries. */
function problemText(error: HandoffError, file: string): string {
  return error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message;
}

/**
 * What parsing one file produced, in a form that survives JSON: YAML parsing is most of
 * the cost of reading a thousand handoffs, and a git hook pays it on every
 * commit that touches .handoff/, so results are cached by a hash of path and content.
 * Cached items carry no YAML document (`doc`): tree readers only need meta and text.
 */
export interface CachedItem {
  meta?: HandoffMeta | PinMeta;
  body?: string;
  misnamed?: boolean;
  problem?: Omit<Problem, 'file'>;
  /**
   * The blob id of the text it was parsed from: beside a work-tree file's stat data, added
   * by the writers' record of a validated tree (git-hooks/validated.ts), which needs every
   * file's blob, so that a file the cache knows by its stat data is never read, or hashed,
   * again (hashing loads node:crypto, which a hook that only renders does not).
   */
  blob?: string;
}

export interface ParseCache {
  get(key: string): CachedItem | undefined;
  /**
   * A work-tree file's entry by its stat data: what get(`${path}\0s${stamp}`) gives, without
   * building that key (a walk asks it of every file).
   */
  stat?(path: string, stamp: string): CachedItem | undefined;
  set(key: string, item: CachedItem): void;
  /** Whether it may hold an entry of this path by its blob id (worth hashing a file's text to ask). */
  knows?(path: string): boolean;
}

/**
 * Keyed by path and content: a work-tree file by its stat data, a file read from the
 * index or a commit by the blob id git already has, without reading it; a file given by
 * its text (too new for its stat data, or just written) by that text, which the cache
 * stores under the text's blob id (hashing it loads node:crypto, which a session start
 * whose cache answers never does).
 */
export function cacheKey(f: TreeFile): string {
  if (f.stamp !== undefined) return `${f.path}\0s${f.stamp}`;
  return f.blob !== undefined ? `${f.path}\0${f.blob}` : `${f.path}\0\0${f.text ?? ''}`;
}

/** The id git gives a file's content: sha1 of "blob <size>\0<content>". */
export function blobId(content: string | Buffer): string {
  return objectId('blob', content);
}

/** A git object's id (SHA-1): its type and size, then its content. */
export function objectId(type: 'blob' | 'tree', content: string | Buffer): string {
  // node:crypto is taken here, not imported with this module, which every command loads.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha1')
    .update(`${type} ${Buffer.byteLength(content)}\0`)
    .update(content)
    .digest('hex');
}

/** The parsers of full files (store/parsers.ts: only needed when the cache misses). */
export interface Parsers {
  handoff: (text: string, file: string) => Pick<Handoff, 'meta' | 'bodyText'>;
  pin: (text: string, file: string) => Pick<Pin, 'meta' | 'text'>;
}

/** The files whose text must be read before parseTree can run. */
export function needText(files: readonly TreeFile[], cache?: ParseCache): TreeFile[] {
  return files.filter(
    (f) => f.text === undefined && itemKind(f.path) !== undefined && cachedFor(f, cache) === undefined,
  );
}

/**
 * What the cache gives for a file, unless it lacks what this file can give back: an open
 * handoff's body, for a staged or committed file known by its blob id alone (a work-tree
 * reader keeps none, see kept). Such a file's text is read then, and its body split off
 * it, without parsing it again.
 */
function cachedFor(f: TreeFile, cache?: ParseCache): CachedItem | undefined {
  const c = f.cached ?? cache?.get(cacheKey(f));
  if (c === undefined || c.body !== undefined || f.text !== undefined || f.laterBody !== undefined) return c;
  return (c.meta as HandoffMeta | undefined)?.status === 'open' && itemKind(f.path) === 'handoff' ? undefined : c;
}

function parseOne(f: { path: string; text: string }, kind: ItemKind, parsers: Parsers): CachedItem {
  try {
    const item = kind === 'handoff' ? parsers.handoff(f.text, f.path) : parsers.pin(f.text, f.path);
    const body = kind === 'handoff' ? (item as Handoff).bodyText : (item as Pin).text;
    if (`${item.meta.id}.md` !== baseName(f.path)) {
      const line = idLine(f.text);
      return {
        meta: item.meta,
        body,
        misnamed: true,
        problem: { message: misnamedMessage(item.meta.id), ...(line ? { line } : {}) },
      };
    }
    return { meta: item.meta, body };
  } catch (error) {
    if (!(error instanceof HandoffError)) throw error;
    return { problem: { message: problemText(error, f.path), ...lineOf(error) } };
  }
}

/**
 * What the cache keeps of a parsed file: a handoff without its body, but for an open one
 * given by its text alone (written by this run, or the open index's). Closed handoffs are
 * most of .handoff/ and their bodies are almost never shown; a work-tree file's body is read
 * again when something asks for it, and a file given by its text splits it off again. An
 * open handoff staged or committed keeps none either: the readers of those trees that show
 * part of it (the pre-commit hook, the merge driver, every branch's view) read its text in
 * the one `cat-file` they run anyway, and the few open handoffs' sections were the largest
 * part of the items cache in a small history, kept again at each edit committed.
 */
export function kept(f: TreeFile, parsed: CachedItem): CachedItem {
  if (itemKind(f.path) !== 'handoff' || parsed.problem || parsed.body === undefined) return parsed;
  if (f.laterBody === undefined && f.blob === undefined && (parsed.meta as HandoffMeta | undefined)?.status === 'open')
    return parsed;
  const { body: _body, ...rest } = parsed;
  return rest;
}

/**
 * The files parseTree will parse: an item file read, within the size limit, that the cache
 * does not give (cachedFor). A file not read that the cache does not give either is
 * parseTree's internal error, as before.
 */
export function toParse(files: readonly TreeFile[], cache?: ParseCache): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const f of files)
    if (
      f.refused === undefined &&
      f.text !== undefined &&
      itemKind(f.path) !== undefined &&
      overLimit(f.text) === undefined &&
      cachedFor(f, cache) === undefined
    )
      out.push({ path: f.path, text: f.text });
  return out;
}

export function parseTree(files: readonly TreeFile[], cache?: ParseCache, parsers?: Parsers): Tree {
  const tree: Tree = { handoffs: [], pins: [], problems: [], misnamed: [] };
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const kind = itemKind(f.path);
    if (!kind) continue;
    if (f.refused !== undefined) {
      tree.problems.push({ file: f.path, message: f.refused });
      continue;
    }
    // Over the limit: refused before it becomes a cache key or is parsed, and never cached.
    const large = f.text === undefined ? undefined : overLimit(f.text);
    if (large !== undefined) {
      tree.problems.push({ file: f.path, message: tooLarge(large) });
      continue;
    }
    let parsed = cachedFor(f, cache);
    if (!parsed) {
      if (f.text === undefined || !parsers)
        throw new Error(`internal: ${f.path} was not read or parsed (blob ${f.blob ?? 'unknown'})`);
      parsed = parseOne({ path: f.path, text: f.text }, kind, parsers);
      // A staged or committed file's blob id is kept with it too, so that its entry and the
      // work tree's (which the writers' record adds its blob id to) are stored once.
      cache?.set(cacheKey(f), f.blob === undefined ? kept(f, parsed) : { ...kept(f, parsed), blob: f.blob });
    }
    if (parsed.problem) tree.problems.push({ file: f.path, ...parsed.problem });
    if (!parsed.meta) continue;
    const item = toItem(kind, f, parsed);
    if (parsed.misnamed) tree.misnamed.push(item);
    else if (kind === 'handoff') tree.handoffs.push(item as Handoff);
    else tree.pins.push(item as Pin);
  }
  const byId = <T extends { meta: { id: string } }>(a: T, b: T) =>
    a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0;
  tree.handoffs.sort(byId);
  tree.pins.sort(byId);
  return tree;
}

/**
 * The tree with some files' items and problems replaced by those of each file parsed
 * alone, in parseTree's order: what parseTree gives for the files with those changed,
 * without going through every other file again.
 */
export function withFiles(tree: Tree, parsed: ReadonlyMap<string, Tree>): Tree {
  const byPath = <T extends { file: string }>(a: T, b: T) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  const byId = <T extends { file: string; meta: { id: string } }>(a: T, b: T) =>
    a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : byPath(a, b);
  const ones = [...parsed.values()];
  const swap = <T extends { file: string }>(
    all: readonly T[],
    mine: (t: Tree) => readonly T[],
    order: (a: T, b: T) => number,
  ) => [...all.filter((x) => !parsed.has(x.file)), ...ones.flatMap(mine)].sort(order);
  return {
    handoffs: swap(tree.handoffs, (t) => t.handoffs, byId),
    pins: swap(tree.pins, (t) => t.pins, byId),
    problems: swap(tree.problems, (t) => t.problems, byPath),
    misnamed: swap(tree.misnamed, (t) => t.misnamed, byPath),
  };
}

function idLine(text: string): number | undefined {
  const index = text.split('\n').findIndex((l) => /^id:/.test(l));
  return index >= 0 ? index + 1 : undefined;
}

function lineOf(error: HandoffError): { line?: number } {
  return error instanceof FileFormatError && error.line !== undefined ? { line: error.line } : {};
}

/**
 * Three-way merge of path -> blob maps, file by file, the way git would merge a tree
 * in which no file conflicts: a side that changed a file wins; when both changed it
 * differently, ours is taken (git's own merge of that file decides the real content,
 * and the post-merge hook refreshes the roadmap from it).
 */
export function mergeMaps(
  base: ReadonlyMap<string, string>,
  ours: ReadonlyMap<string, string>,
  theirs: ReadonlyMap<string, string>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const o = base.get(path);
    const a = ours.get(path);
    const b = theirs.get(path);
    const pick = a === b ? a : a === o ? b : a;
    if (pick !== undefined) out.set(path, pick);
  }
  return out;
}
