// Front-matter: the only importer of `yaml`.
//
// Why `yaml` and these options on every call:
// - schema 'core' without custom tags: `!!js/function` and friends are errors, never code;
//   dates stay strings (YAML 1.1 would turn 2024-01-05 into a Date).
// - maxAliasCount bounds "billion laughs" alias bombs.
// - Strings are written double-quoted so that other YAML 1.1 readers cannot mistake a
//   hash such as 1e51234 for a number or an ISO time for a timestamp.
// - parseDocument keeps keys a person added, their order and their comments, so a
//   read-modify-write changes only what the tool meant to change.
import {
  type Document,
  isMap,
  parseDocument,
  stringify,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
import { FileFormatError } from '../core/errors.js';

const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  schema: 'core',
  uniqueKeys: true,
  prettyErrors: true,
  strict: true,
  // yaml reports odd input (a mapping used as a key) with process.emitWarning, which would
  // print a multi-line Node warning from a read command; the file is judged here instead.
  logLevel: 'error',
};
const TO_JS_OPTIONS = { maxAliasCount: 100 } as const;
const WRITE_OPTIONS = {
  lineWidth: 0,
  // A string with line breaks stays on one line, each break as `\n`: yaml's multi-line form
  // of a double-quoted string wrote a space after a break as a backslash of its own (an
  // author of control characters, a break, a space came back with a `\`).
  doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY,
  defaultStringType: 'QUOTE_DOUBLE',
  defaultKeyType: 'PLAIN',
  indentSeq: true,
} as const;

export type FrontMatterDoc = Document.Parsed;

export { splitFrontMatter, type Split } from './split.js';

/**
 * Parses front-matter YAML into a document that keeps comments and unknown keys; `whole`
 * for a file that is all YAML (config.yml), which starts on the file's first line.
 */
export function parseFrontMatter(yaml: string, file: string, whole = false): FrontMatterDoc {
  const name = whole ? 'YAML' : 'YAML front-matter';
  const doc = parseDocument(yaml, PARSE_OPTIONS);
  // An unknown tag (!!js/function, !custom) is only a warning to yaml, which then reads
  // the value as a plain string; a file that asks for one is refused instead.
  const error = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (error) {
    // One line number, the file's: the front-matter starts on its second line. yaml places
    // an error found at the end of the text (an unclosed bracket) on the line after its last
    // newline, a line a whole file does not have: that is its last line.
    const at = error.linePos?.[0]?.line;
    const lines = yaml.split('\n').length - (yaml.endsWith('\n') ? 1 : 0);
    const line = at ? (whole ? Math.min(at, Math.max(lines, 1)) : at + 1) : undefined;
    const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw new FileFormatError(file, `invalid ${name}${line ? ` at line ${line}` : ''}: ${what}`, {
      cause: error,
      ...(line ? { line } : {}),
    });
  }
  // Warnings include unresolved tags such as !!js/function: refuse them rather than guess.
  const warning = doc.warnings[0];
  if (warning) {
    throw new FileFormatError(
      file,
      `invalid ${name}: ${warning.message.split('\n')[0]} (tags and other extensions are not allowed)`,
      { cause: warning },
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new FileFormatError(
      file,
      `${whole ? 'the file' : 'front-matter'} must be a mapping of keys to values (key: value)`,
    );
  }
  return doc;
}

/** The plain data of a parsed document; aliases are bounded. */
export function frontMatterData(doc: FrontMatterDoc, file: string): Record<string, unknown> {
  try {
    const data: unknown = doc.toJS(TO_JS_OPTIONS);
    return (data ?? {}) as Record<string, unknown>;
  } catch (cause) {
    throw new FileFormatError(file, `front-matter could not be read: ${(cause as Error).message}`, { cause });
  }
}

/** Sets (or, with undefined, deletes) top-level keys in place; other keys keep their text. */
export function updateFrontMatter(doc: FrontMatterDoc, changes: Record<string, unknown>): string {
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) doc.delete(key);
    else doc.set(key, doc.createNode(value));
  }
  return doc.toString(WRITE_OPTIONS);
}

/** Writes an ordered object; same object, same bytes. Undefined values are left out. */
export function stringifyFrontMatter(data: Record<string, unknown>): string {
  return stringify(data, WRITE_OPTIONS);
}

export function joinFrontMatter(yaml: string, body: string): string {
  return `---\n${yaml.endsWith('\n') || yaml === '' ? yaml : `${yaml}\n`}---\n${body}`;
}

/** A whole YAML file (config.yml), with the same safety options as front-matter. */
export function parseYamlFile(text: string, file: string): Record<string, unknown> {
  return frontMatterData(parseFrontMatter(text, file, true), file);
}
