// A handoff's front-matter in the one form this tool writes it (handoff.ts serializeHandoff,
// through the yaml library: its keys in their order, every string double-quoted), told and
// closed without that library, for values whose quoted form is their text (printable ASCII
// but `"` and `\`), whole numbers, `true` and null. Closing the landed handoffs of a team's
// merges (`check`, the post-merge hook) otherwise loads the library, parses each file into a
// YAML document and writes it back. A file in any other form (a person's comments, quoting,
// order, keys this version does not know) still goes that way; test/close-parse.test.ts
// checks that both give the same bytes and the same parse. Pure.
import { FILE, META, OPTIONAL_META } from './cache-meta.js';
import type { Handoff, HandoffMeta } from './handoff.js';
import { parseBody } from './markdown.js';
import { NO_DOC } from './read-handoff.js';
import { splitFrontMatter } from './split.js';

/** Text a double-quoted YAML string holds as it is: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const HASH = /^[0-9a-f]{7,64}$/;

/** A value as the yaml library writes it with the tool's options, or undefined when it is not that simple. */
function scalar(v: unknown): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'string') return PLAIN.test(v) ? `"${v}"` : undefined;
  if (v === true) return 'true';
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return undefined;
}

/**
 * The lines serializeHandoff writes for a front-matter (each `key: value`), or undefined
 * when a value is not one this file writes, or one a parse would not give back as it is
 * (an optional key set to null, a listed file's key set to null).
 */
function plainLines(meta: HandoffMeta): string[] | undefined {
  const lines: string[] = [];
  const m = meta as unknown as Record<string, unknown>;
  for (const key of META) {
    const v = m[key];
    if (v === undefined && OPTIONAL_META.has(key)) continue;
    if (v === null && OPTIONAL_META.has(key)) return undefined;
    const s = scalar(v);
    if (s === undefined) return undefined;
    lines.push(`${key}: ${s}`);
  }
  if (meta.files.length === 0) {
    lines.push('files: []');
    return lines;
  }
  lines.push('files:');
  for (const f of meta.files) {
    const r = f as unknown as Record<string, unknown>;
    let first = true;
    for (const key of FILE) {
      const v = r[key];
      if (v === undefined) continue;
      const s = v === null ? undefined : scalar(v);
      if (s === undefined) return undefined;
      lines.push(`${first ? '  - ' : '    '}${key}: ${s}`);
      first = false;
    }
  }
  return lines;
}

/**
 * An open handoff's file closed as landed: what updateHandoffParsed gives for `status: done`,
 * `finished` and `landed` (the two keys added after the others, as the YAML document adds
 * keys it did not have), and what that text parses to. `meta` is the front-matter as read
 * before; the file (read again now) must be exactly what serializeHandoff writes for it, so
 * that it parses to `meta`. Undefined when it is not, or the new values are not that simple:
 * the caller then goes through the YAML document.
 */
export function closedPlain(
  text: string,
  file: string,
  meta: HandoffMeta,
  finished: string,
  landed: string,
): { text: string; parsed: Handoff } | undefined {
  if (meta.status !== 'open' || meta.finished !== undefined || meta.landed !== undefined) return undefined;
  if (!PLAIN.test(finished) || !HASH.test(landed)) return undefined;
  let split: { yaml: string; body: string };
  try {
    split = splitFrontMatter(text, file);
  } catch {
    return undefined; // the YAML path says what is wrong
  }
  const lines = plainLines(meta);
  if (lines === undefined || split.yaml !== `${lines.join('\n')}\n`) return undefined;
  const status = lines.indexOf('status: "open"');
  lines[status] = 'status: "done"';
  lines.push(`finished: "${finished}"`, `landed: "${landed}"`);
  const closed: HandoffMeta = {
    id: meta.id,
    goal: meta.goal,
    ...(meta.step !== undefined ? { step: meta.step } : {}),
    status: 'done',
    created: meta.created,
    author: meta.author,
    branch: meta.branch,
    base: meta.base,
    head: meta.head,
    parent: meta.parent,
    ...(meta.superseded_by !== undefined ? { superseded_by: meta.superseded_by } : {}),
    finished,
    landed,
    files: meta.files,
  };
  const parsed: Handoff = {
    file,
    meta: closed,
    doc: NO_DOC,
    bodyText: split.body,
    body: parseBody(split.body),
  };
  return { text: `---\n${lines.join('\n')}\n---\n${split.body}`, parsed };
}
