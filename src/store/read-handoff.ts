// A handoff or pin as readers see it, from a tree file and what the parse cache gives for it:
// the body read when first asked for, and the YAML document left out (writers re-read it).
import type { Handoff, HandoffMeta } from './handoff.js';
import { type Body, parseBody } from './markdown.js';
import type { Pin, PinMeta } from './pin.js';
import { splitFrontMatter } from './split.js';
import type { CachedItem, ItemKind, TreeFile } from './tree.js';

/**
 * An item as readers see it: no YAML document (`doc`; writers re-read the one file they
 * edit, see store.ts), and a handoff's sections split only when something asks for them.
 */
export function toItem(kind: ItemKind, f: TreeFile, c: CachedItem): Handoff | Pin {
  if (kind === 'pin') return { file: f.path, meta: c.meta as PinMeta, doc: NO_DOC, text: c.body ?? '' };
  return new ReadHandoff(f, c.meta as HandoffMeta, c.body);
}

/** An item read without its YAML document: a writer re-reads the one file it edits (store.ts reread). */
export const NO_DOC = undefined as unknown as Handoff['doc'];

/**
 * A handoff read through the cache: its body (a closed handoff's, read again from its
 * file) and its sections come when first asked for. A class, so that tens of thousands of
 * them share their accessors instead of each carrying its own.
 */
class ReadHandoff implements Handoff {
  readonly doc = NO_DOC;
  readonly file: string;
  #text: string | undefined;
  #body: Body | undefined;
  readonly #from: TreeFile;
  constructor(
    from: TreeFile,
    readonly meta: HandoffMeta,
    text: string | undefined,
  ) {
    this.file = from.path;
    this.#from = from;
    this.#text = text;
  }
  get bodyText(): string {
    return (this.#text ??= this.#from.laterBody?.() ?? textBody(this.#from));
  }
  get body(): Body {
    return (this.#body ??= parseBody(this.bodyText));
  }
}

/** A closed handoff's body from the text a file was given with (its front-matter came from the cache). */
function textBody(f: TreeFile): string {
  try {
    return f.text === undefined ? '' : splitFrontMatter(f.text, f.path).body;
  } catch {
    return '';
  }
}
