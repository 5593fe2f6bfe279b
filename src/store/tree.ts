// The .handoff/ tree as data: a list of (repository-relative path, text) pairs, whether
// they come from the working tree, the index, a commit, or a three-way merge of commits.
// The roadmap, the pre-commit hook, the merge driver and `handoff check` all read
// through here, so the same files give the same result whatever their source.
import { FileFormatError, HandoffError } from '../core/errors.js';
import type { Handoff, HandoffMeta } from './handoff.js';
import { parseBody, type Body } from './markdown.js';
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
  /** The git blob id, from the index or a commit (a work-tree file has none: its text is its key). */
  blob?: string;
  /** Why the file was not read at all (a symbolic link in the work tree): reported, never parsed. */
  refused?: string;
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

/** Which kind of item a path holds, if any: `<dir>/<name>.md` directly under handoffs/ or pins/. */
export function itemKind(path: string): ItemKind | undefined {
  const inDir = (prefix: string) =>
    path.startsWith(prefix) &&
    path.endsWith('.md') &&
    !path.slice(prefix.length).includes('/') &&
    !path.slice(prefix.length).startsWith('.');
  if (inDir(HANDOFFS_PREFIX)) return 'handoff';
  if (inDir(PINS_PREFIX)) return 'pin';
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
}

export interface ParseCache {
  get(key: string): CachedItem | undefined;
  set(key: string, item: CachedItem): void;
}

/**
 * Keyed by path and content: a file read from the index or a commit by the blob id git
 * already has, without reading it; a working-tree file by its whole text, which needs no
 * hash (and so no node:crypto, which a session start would otherwise load).
 */
export function cacheKey(f: TreeFile): string {
  return f.blob !== undefined ? `${f.path}\0${f.blob}` : `${f.path}\0\0${f.text ?? ''}`;
}

/** The id git gives a file's content: sha1 of "blob <size>\0<content>". */
export function blobId(content: string | Buffer): string {
  // node:crypto is taken here, not imported with this module, which every command loads.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha1')
    .update(`blob ${Buffer.byteLength(content)}\0`)
    .update(content)
    .digest('hex');
}

/** The parsers of full files (they load the YAML library: only needed when the cache misses). */
export interface Parsers {
  handoff: (text: string, file: string) => Handoff;
  pin: (text: string, file: string) => Pin;
}

/** The files whose text must be read before parseTree can run. */
export function needText(files: readonly TreeFile[], cache?: ParseCache): TreeFile[] {
  return files.filter(
    (f) => f.text === undefined && itemKind(f.path) !== undefined && cache?.get(cacheKey(f)) === undefined,
  );
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
 * An item as readers see it: no YAML document (`doc`; writers re-read the one file they
 * edit, see store.ts), and a handoff's sections split only when something asks for them.
 */
function toItem(kind: ItemKind, file: string, c: CachedItem): Handoff | Pin {
  const doc = undefined as unknown as Handoff['doc'];
  const text = c.body ?? '';
  if (kind === 'pin') return { file, meta: c.meta as PinMeta, doc, text };
  let body: Body | undefined;
  return {
    file,
    meta: c.meta as HandoffMeta,
    doc,
    bodyText: text,
    get body() {
      return (body ??= parseBody(text));
    },
  };
}

/** Whether parseTree will have to parse some file (so the caller loads the parsers). */
export function needsParsing(files: readonly TreeFile[], cache?: ParseCache): boolean {
  return files.some(
    (f) => f.refused === undefined && itemKind(f.path) !== undefined && cache?.get(cacheKey(f)) === undefined,
  );
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
    const key = cacheKey(f);
    let parsed = cache?.get(key);
    if (!parsed) {
      if (f.text === undefined || !parsers)
        throw new Error(`internal: ${f.path} was not read or parsed (blob ${f.blob ?? 'unknown'})`);
      parsed = parseOne({ path: f.path, text: f.text }, kind, parsers);
      cache?.set(key, parsed);
    }
    if (parsed.problem) tree.problems.push({ file: f.path, ...parsed.problem });
    if (!parsed.meta) continue;
    const item = toItem(kind, f.path, parsed);
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
