// Shared by the read commands: JSON out, and one-line summaries of handoffs and pins.
import type { Context } from './context.js';
import type { Handoff } from '../store/handoff.js';
import { inline } from '../store/markdown.js';

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

export function truncate(text: string, width: number): string {
  const flat = inline(text);
  return flat.length > width ? `${flat.slice(0, width - 3)}...` : flat;
}

export { plural } from '../store/markdown.js';

/** A path outside the repository as shown to people: the home directory is the user's business, shown as ~. */
export function homeShort(file: string, home: string | undefined): string {
  return home && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
