// Shared by the read commands: JSON out, and one-line summaries of handoffs and pins.
import type { Context } from './context.js';
import type { Handoff } from '../store/handoff.js';
import { inline } from '../store/markdown.js';
import type { Problem } from '../store/tree.js';

/** The shape of every `--json` output (docs/json.md); raised when a key changes meaning or goes away. */
const JSON_SCHEMA_VERSION = 1;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Keys in snake_case at every depth, as in the files' front-matter. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]));
  return value;
}

/** Every read command's `--json`: one object, `schema_version` first, lists as arrays under a name. */
export function printJson(ctx: Context, value: Record<string, unknown>): void {
  ctx.stdout(
    `${JSON.stringify({ schema_version: JSON_SCHEMA_VERSION, ...(snakeKeys(value) as Record<string, unknown>) }, null, 2)}\n`,
  );
}

// C0 controls but tab and newline, a carriage return not ending a line, DEL, C1 controls,
// the bidirectional embeddings, overrides and isolates, and the line and paragraph
// separators. Not the bidirectional marks (U+200E, U+200F, U+061C): right-to-left writing
// uses them, a pin is shown as it was written, and a mark reorders no run of text.
const CONTROLS =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/**
 * Text from files anyone can commit, made safe for a terminal: each control character a
 * terminal would act on (ESC starting a clipboard write, a screen clear, a link or a title;
 * a lone carriage return that overwrites a line) becomes its visible `\uXXXX` escape. So
 * does each bidirectional embedding, override and isolate, which make a terminal show text
 * in another order than it is read in, and each Unicode line or paragraph separator, which some show as a break
 * and others as nothing. The same spelling is a valid escape inside a JSON string, so a
 * `--json` output stays JSON and still parses to the original text.
 */
export function terminalSafe(text: string): string {
  CONTROLS.lastIndex = 0;
  if (!CONTROLS.test(text)) return text;
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Output streams that let no control character through (every command's stdout and stderr). */
export function terminalSafeStreams<T extends { stdout: (text: string) => void; stderr: (line: string) => void }>(
  io: T,
): T {
  return { ...io, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (line) => io.stderr(terminalSafe(line)) };
}

/** A handoff's front-matter with every documented key present: what a file leaves out is `null`. */
export function handoffJson(h: Pick<Handoff, 'file' | 'meta'>) {
  return {
    ...h.meta,
    superseded_by: h.meta.superseded_by ?? null,
    finished: h.meta.finished ?? null,
    landed: h.meta.landed ?? null,
    file: h.file,
  };
}

/**
 * The files a read command could not read and left out of what it printed (each also warned
 * about on stderr): `skipped` in its `--json`, so a script sees what is missing, not only an exit status.
 */
export function skippedJson(problems: readonly Problem[]) {
  return problems.map((p) => ({ file: p.file, line: p.line ?? null, message: p.message }));
}

export function truncate(text: string, width: number): string {
  const flat = inline(text);
  return flat.length > width ? `${flat.slice(0, width - 3)}...` : flat;
}

export { plural } from '../store/markdown.js';

/** A path outside the repository as shown to people: the home directory is the user's business, shown as ~. */
export function homeShort(file: string, home: string | undefined): string {
  return home && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
