// A handoff's front-matter in the one form this tool writes it (handoff.ts serializeHandoff,
// through the yaml library: its keys in their order, every string double-quoted), told and
// closed without that library, for values whose quoted form is their text (printable ASCII
// but `"` and `\`), whole numbers, `true` and null. Closing the landed handoffs of a team's
// merges (`check`, the post-merge hook) otherwise loads the library, parses each file into a
// YAML document and writes it back. A file in any other form (a person's comments, quoting,
// order, keys this version does not know) still goes that way; test/close-parse.test.ts
// checks that both give the same bytes and the same parse.
//
// Read the same way (plainHandoff): a fresh clone's first `check` parsed a year of handoffs
// through the library, 0.4 ms each, most of its time. A file of lines in this form (in any
// order) is read here, and any other line sends it to the library;
// test/close-parse.test.ts compares the two, over edits of every kind. Pure.
import { FILE, META, OPTIONAL_META } from './cache-meta.js';
import type { Handoff } from './handoff.js';
import { validateMeta, type HandoffMeta } from './handoff-meta.js';
import { validatePin, type PinMeta } from './pin-meta.js';
import { parseBody } from './markdown.js';
import { NO_DOC } from './read-handoff.js';
import { splitFrontMatter } from './split.js';

/** Text a double-quoted YAML string holds as it is: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A value as the yaml library writes it with the tool's options, or undefined when it is not that simple. */
function scalar(v: unknown): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'string') return PLAIN.test(v) ? `"${v}"` : undefined;
  if (v === true) return 'true';
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)) return String(v);
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
    if (first) return undefined; // no key: the library writes `- {}`
  }
  return lines;
}

/** The keys a change of an open handoff adds (updateHandoffParsed): closing it, or superseding it. */
export type Added = ReadonlyArray<readonly [key: 'superseded_by' | 'finished' | 'landed', value: string]>;

/**
 * An open handoff's file with its status changed and keys added: what updateHandoffParsed
 * gives for that change (the status in place, the keys added after the others, as the YAML
 * document adds keys it did not have), and what that text parses to. `meta` is the
 * front-matter as read before; the file (read again now) must be exactly what
 * serializeHandoff writes for it, so that it parses to `meta`. Undefined when it is not, or
 * the new values are not that simple, or do not validate: the caller then goes through the
 * YAML document.
 */
export function changedPlain(
  text: string,
  file: string,
  meta: HandoffMeta,
  status: HandoffMeta['status'],
  added: Added,
): { text: string; parsed: Handoff } | undefined {
  if (meta.status !== 'open' || added.some(([key, value]) => meta[key] !== undefined || !PLAIN.test(value)))
    return undefined;
  const split = splitOrNone(text, file);
  const lines = plainLines(meta);
  if (split === undefined || lines === undefined || split.yaml !== `${lines.join('\n')}\n`) return undefined;
  lines[lines.indexOf('status: "open"')] = `status: "${status}"`;
  for (const [key, value] of added) lines.push(`${key}: "${value}"`);
  let changed: HandoffMeta;
  try {
    changed = validateMeta({ ...meta, status, ...Object.fromEntries(added) }, file);
  } catch {
    return undefined;
  }
  const parsed: Handoff = { file, meta: changed, doc: NO_DOC, bodyText: split.body, body: parseBody(split.body) };
  return { text: `---\n${lines.join('\n')}\n---\n${split.body}`, parsed };
}

/** What serializeHandoff writes, when every value is one plainLines writes; undefined otherwise. */
export function plainText(meta: HandoffMeta, bodyText: string): string | undefined {
  const lines = plainLines(meta);
  return lines && `---\n${lines.join('\n')}\n---\n${bodyText}`;
}

/** A value as scalar() writes it read back, or NOT when it is not one scalar() writes. */
const NOT = Symbol('not plain');
const WHOLE = /^(?:0|[1-9][0-9]{0,14})$/;
function plainValue(s: string): unknown {
  if (s.length >= 2 && s.charCodeAt(0) === 34 && s.charCodeAt(s.length - 1) === 34) {
    const v = s.slice(1, -1);
    return PLAIN.test(v) ? v : NOT;
  }
  if (s === 'null') return null;
  if (s === 'true') return true;
  return WHOLE.test(s) ? Number(s) : NOT;
}

/** The keys serializeHandoff writes, at the top and in a listed file: any other sends the file to the library. */
const TOP_KEYS = new Set<string>(META);
const FILE_KEYS = new Set<string>(FILE);

/** Sets `key: value` of `line` in `into`; false when the line is not such a pair of a known key and a plain value, or the key is there already. */
function pair(line: string, into: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  const colon = line.indexOf(': ');
  if (colon < 0) return false;
  const key = line.slice(0, colon);
  if (!keys.has(key) || into[key] !== undefined) return false;
  const v = plainValue(line.slice(colon + 2));
  if (v === NOT) return false;
  into[key] = v;
  return true;
}

/**
 * The data of a front-matter made only of lines as the tool writes them: `key: value` with one
 * of `keys` and a value scalar() writes, and a handoff's files as a block list of such pairs. In
 * any order: the tool's own edits through the YAML document put the keys they add after the
 * files (`superseded_by`, `finished`, `landed`, a pin's `retired`), and the data does not
 * depend on the order. Undefined for anything else.
 */
function plainData(yaml: string, keys: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (!yaml.endsWith('\n')) return undefined;
  const data: Record<string, unknown> = {};
  let files: Array<Record<string, unknown>> | undefined;
  let listing = false;
  for (const line of yaml.slice(0, -1).split('\n')) {
    if (listing && line.startsWith('  - ')) {
      files!.push({});
      if (!pair(line.slice(4), files![files!.length - 1]!, FILE_KEYS)) return undefined;
      continue;
    }
    if (listing && line.startsWith('    ') && files!.length > 0) {
      if (!pair(line.slice(4), files![files!.length - 1]!, FILE_KEYS)) return undefined;
      continue;
    }
    // `files:` with nothing under it is null, not a list: the library says what that is.
    if (listing && files!.length === 0) return undefined;
    listing = false;
    if (line === 'files:' || line === 'files: []') {
      if (data.files !== undefined) return undefined;
      data.files = files = [];
      listing = line === 'files:';
    } else if (!pair(line, data, keys)) return undefined;
  }
  return listing && files!.length === 0 ? undefined : data;
}

/** A file's front-matter and body, or undefined when it has none (the library's path says why). */
function splitOrNone(text: string, file: string): { yaml: string; body: string } | undefined {
  try {
    return splitFrontMatter(text, file);
  } catch {
    return undefined;
  }
}

/**
 * A file's front-matter read as plainData reads it and checked by `validate`, and its body;
 * undefined when it is not in that form or does not validate (the caller then parses it with
 * the YAML library, which also says what is wrong with it).
 */
function plainRead<M>(
  text: string,
  file: string,
  keys: ReadonlySet<string>,
  validate: (data: Record<string, unknown>, file: string) => M,
): { meta: M; body: string } | undefined {
  const split = splitOrNone(text, file);
  const data = split && plainData(split.yaml, keys);
  if (!split || !data) return undefined;
  try {
    return { meta: validate(data, file), body: split.body };
  } catch {
    return undefined;
  }
}

/** A handoff's front-matter and body, as parseHandoff reads them, when plainRead can read it. */
export function plainHandoff(text: string, file: string): { meta: HandoffMeta; bodyText: string } | undefined {
  const read = plainRead(text, file, TOP_KEYS, validateMeta);
  return read && { meta: read.meta, bodyText: read.body };
}

/** The keys serializePin writes but `scope` (a list of globs: a scoped pin is the library's to read). */
const PIN_KEYS = new Set<string>(['id', 'created', 'author', 'status', 'supersedes', 'retired', 'reason']);

/** A pin's front-matter and text, as parsePin reads them, when plainRead can read it (no scope). */
export function plainPin(text: string, file: string): { meta: PinMeta; text: string } | undefined {
  const read = plainRead(text, file, PIN_KEYS, validatePin);
  return read && { meta: read.meta, text: read.body };
}
