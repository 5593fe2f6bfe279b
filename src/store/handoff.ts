// The handoff file: YAML front-matter (facts) + Markdown sections (prose).
// Parsing keeps the YAML document and the body text, so a read-modify-write changes
// only the keys the tool sets; unknown keys, comments and sections survive.
import {
  frontMatterData,
  joinFrontMatter,
  parseFrontMatter,
  splitFrontMatter,
  stringifyFrontMatter,
  updateFrontMatter,
  type FrontMatterDoc,
} from './frontmatter.js';
import { parseBody, type Body } from './markdown.js';
import { validateMeta, type HandoffMeta } from './handoff-meta.js';

export {
  CHANGE_KINDS,
  FILE_STATES,
  STATUSES,
  type ChangeKind,
  type FileChange,
  type FileState,
  type HandoffMeta,
  type Status,
} from './handoff-meta.js';

export interface Handoff {
  file: string;
  meta: HandoffMeta;
  doc: FrontMatterDoc;
  /** The Markdown after the front-matter, exactly as stored. */
  bodyText: string;
  body: Body;
}

export function serializeHandoff(meta: HandoffMeta, bodyText: string): string {
  const ordered: Record<string, unknown> = {
    id: meta.id,
    goal: meta.goal,
    step: meta.step,
    status: meta.status,
    created: meta.created,
    author: meta.author,
    branch: meta.branch,
    base: meta.base,
    head: meta.head,
    parent: meta.parent,
    superseded_by: meta.superseded_by,
    finished: meta.finished,
    landed: meta.landed,
    files: meta.files.map((f) => ({
      path: f.path,
      change: f.change,
      from: f.from,
      insertions: f.insertions,
      deletions: f.deletions,
      binary: f.binary,
      files: f.files,
      state: f.state,
    })),
  };
  return joinFrontMatter(stringifyFrontMatter(ordered), bodyText);
}

export function parseHandoff(text: string, file: string): Handoff {
  const { yaml, body: bodyText } = splitFrontMatter(text, file);
  const doc = parseFrontMatter(yaml, file);
  const data = frontMatterData(doc, file);
  const meta = validateMeta(data, file);
  return { file, meta, doc, bodyText, body: parseBody(bodyText) };
}

/** The same file with some front-matter keys changed; everything else byte for byte. */
export function updateHandoff(handoff: Handoff, changes: Partial<HandoffMeta>): string {
  return updateHandoffParsed(handoff, changes).text;
}

/**
 * updateHandoff, and what its text parses to, taken from the document just changed: a
 * writer of many (`check` closing the landed ones) then need not parse each file it wrote
 * again. `parsed` is undefined when the changed keys no longer validate (the writer then
 * parses the text, and says what is wrong, as before). test/close-parse.test.ts checks
 * that it equals parseHandoff of the text.
 */
export function updateHandoffParsed(
  handoff: Handoff,
  changes: Partial<HandoffMeta>,
): { text: string; parsed: Handoff | undefined } {
  const text = joinFrontMatter(updateFrontMatter(handoff.doc, changes as Record<string, unknown>), handoff.bodyText);
  try {
    const meta = validateMeta(frontMatterData(handoff.doc, handoff.file), handoff.file);
    return { text, parsed: { ...handoff, meta } };
  } catch {
    return { text, parsed: undefined };
  }
}
