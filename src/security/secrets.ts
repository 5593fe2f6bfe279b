// Applying redactSecrets to what a command is about to write or print. The patterns live
// in redact.ts; strings.ts walks values, and notice.ts words what was found, so a new
// pattern library changes nothing here.
import { redactSecrets, type Redacted } from './redact.js';
import { mapStrings } from './strings.js';
import { IN_FILES, redactionNotice } from './notice.js';

export interface Scrubbed<T> {
  value: T;
  /** The kind of each secret found, in order. */
  kinds: string[];
}

/** Every string inside `value` (objects, arrays, nested) with secrets replaced, each by `redact`. */
export function scrub<T>(value: T, redact: (text: string) => Redacted = redactSecrets): Scrubbed<T> {
  const kinds: string[] = [];
  const out = mapStrings(value, (v) => {
    const { text, redactions } = redact(v);
    for (const r of redactions) kinds.push(r.kind);
    return text;
  });
  return { value: out, kinds };
}

/** What a read command is about to print from committed files, redacted, and the one line
 *  (empty when nothing was found) that tells the user so: the files themselves still hold
 *  the secrets, so the line says where to look. */
export function scrubForPrint<T>(value: T, where: string): { value: T; notice: string } {
  const { value: out, kinds } = scrub(value);
  return { value: out, notice: redactionNotice(kinds, where, IN_FILES) };
}
