// A pin: one user constraint, stored byte for byte after the front-matter. The text is
// never rewritten; retiring a pin changes front-matter only, and a changed constraint
// is a new pin that names the old one in `supersedes`.
import {
  frontMatterData,
  joinFrontMatter,
  parseFrontMatter,
  splitFrontMatter,
  stringifyFrontMatter,
  updateFrontMatter,
  type FrontMatterDoc,
} from './frontmatter.js';
import { validatePin, type PinMeta } from './pin-meta.js';

export type { PinMeta } from './pin-meta.js';

export interface Pin {
  file: string;
  meta: PinMeta;
  doc: FrontMatterDoc;
  text: string;
}

export function serializePin(meta: PinMeta, text: string): string {
  const ordered: Record<string, unknown> = {
    id: meta.id,
    created: meta.created,
    author: meta.author,
    status: meta.status,
    scope: meta.scope && meta.scope.length > 0 ? meta.scope : undefined,
    supersedes: meta.supersedes,
    retired: meta.retired,
    reason: meta.reason,
  };
  return joinFrontMatter(stringifyFrontMatter(ordered), text);
}

export function parsePin(text: string, file: string): Pin {
  const split = splitFrontMatter(text, file);
  const doc = parseFrontMatter(split.yaml, file);
  const data = frontMatterData(doc, file);
  const meta = validatePin(data, file);
  return { file, meta, doc, text: split.body };
}

export function retirePin(pin: Pin, when: string, reason: string | undefined): string {
  return joinFrontMatter(updateFrontMatter(pin.doc, { status: 'retired', retired: when, reason }), pin.text);
}
