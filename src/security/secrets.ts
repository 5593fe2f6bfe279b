// Applying redactSecrets to what a command is about to write or print. The patterns live
// in redact.ts; this file only walks values, and notice.ts words what was found, so a new
// pattern library changes nothing here.
import { redactSecrets, type Redacted } from './redact.js';

export interface Scrubbed<T> {
  value: T;
  /** The kind of each secret found, in order. */
  kinds: string[];
}

/** Every string inside `value` (objects, arrays, nested) with secrets replaced, each by `redact`. */
export function scrub<T>(value: T, redact: (text: string) => Redacted = redactSecrets): Scrubbed<T> {
  const kinds: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const { text, redactions } = redact(v);
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
