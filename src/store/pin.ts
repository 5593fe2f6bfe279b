// A pin: one user constraint, stored byte for byte after the front-matter. The text is
// never rewritten; retiring a pin changes front-matter only, and a changed constraint
// is a new pin that names the old one in `supersedes`.
import { FileFormatError } from '../core/errors.js';
import {
  frontMatterData,
  joinFrontMatter,
  parseFrontMatter,
  splitFrontMatter,
  stringifyFrontMatter,
  updateFrontMatter,
  type FrontMatterDoc,
} from './frontmatter.js';
import { isId } from './id.js';

export interface PinMeta {
  id: string;
  created: string;
  author: string;
  status: 'active' | 'retired';
  scope?: string[];
  supersedes?: string;
  retired?: string;
  reason?: string;
}

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
  const fail = (problem: string) => {
    throw new FileFormatError(file, problem);
  };
  if (!isId(data.id)) fail(`front-matter 'id' must be a 26-character pin id; found ${JSON.stringify(data.id)}`);
  if (typeof data.created !== 'string') fail(`front-matter 'created' must be an ISO time in quotes`);
  const status = data.status ?? 'active';
  if (status !== 'active' && status !== 'retired')
    fail(`front-matter 'status' must be active or retired; found ${JSON.stringify(status)}`);
  const scope = data.scope;
  if (scope !== undefined && scope !== null && !(Array.isArray(scope) && scope.every((s) => typeof s === 'string'))) {
    fail(`front-matter 'scope' must be a list of path globs, e.g. scope: ["src/auth/**"]`);
  }
  if (data.supersedes !== undefined && data.supersedes !== null && !isId(data.supersedes)) {
    fail(`front-matter 'supersedes' must be a pin id`);
  }
  const meta: PinMeta = {
    id: data.id as string,
    created: data.created as string,
    author: typeof data.author === 'string' ? data.author : '',
    status: status as PinMeta['status'],
    ...(Array.isArray(scope) && scope.length > 0 ? { scope: scope as string[] } : {}),
    ...(typeof data.supersedes === 'string' ? { supersedes: data.supersedes } : {}),
    ...(typeof data.retired === 'string' ? { retired: data.retired } : {}),
    ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
  };
  return { file, meta, doc, text: split.body };
}

export function retirePin(pin: Pin, when: string, reason: string | undefined): string {
  return joinFrontMatter(updateFrontMatter(pin.doc, { status: 'retired', retired: when, reason }), pin.text);
}
