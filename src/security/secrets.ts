// Applying redactSecrets to what a command is about to write or print, and the one line
// that tells the user it happened. The patterns live in redact.ts; this file only walks
// values and words the notice, so a new pattern library changes nothing here.
import { redactSecrets } from './redact.js';

export interface Scrubbed<T> {
  value: T;
  /** The kind of each secret found, in order. */
  kinds: string[];
}

/** Every string inside `value` (objects, arrays, nested) with secrets replaced. */
export function scrub<T>(value: T): Scrubbed<T> {
  const kinds: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const { text, redactions } = redactSecrets(v);
      for (const r of redactions) kinds.push(r.kind);
      return text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  const out = walk(value) as T;
  return { value: out, kinds };
}

/** The kinds found, de-duplicated, for a message: "github-token, aws-access-key". */
export function kindList(kinds: readonly string[]): string {
  return [...new Set(kinds)].join(', ');
}

/** One stderr line; empty when nothing was redacted. */
export function redactionNotice(kinds: readonly string[], where: string, override: string): string {
  if (kinds.length === 0) return '';
  const n = kinds.length;
  return `handoff: redacted ${n} secret${n === 1 ? '' : 's'} (${kindList(kinds)}) from ${where}; ${override}`;
}
