// Redaction at every session start, remembered. An unchanged repository gives the same
// resume prompt at each session start, and running every secret pattern over it costs
// more than the rest of the session start (loading the patterns and their first run;
// bench/hot-paths.js measures both cases). So each string found clean (the whole prompt,
// each string of its parts) is remembered (store/clean.ts), whole, never as a hash: the
// same string again is clean, by string comparison. When every string was seen clean
// before, the patterns are not even loaded; otherwise only the new strings are redacted
// (after a commit: the prompt and the part that says what happened since). Nothing with
// a secret in it is remembered, and other rules (RULES) start with nothing remembered.
import type { Scrubbed } from './secrets.js';
import { mapStrings } from './strings.js';

/**
 * The identity of the redaction rules, which the remembered strings are kept under (not
 * the tool's version, so installs of other versions side by side share them): change it
 * whenever the rules change (redact.ts,
 * extra-rules.ts, gitleaks-rules.ts).
 */
export const RULES = 'redact-2';

/** Where the clean strings are kept (store/clean.ts), opened by the caller. */
export interface Remembered {
  clean: { has(text: string): boolean; add(text: string): void };
  save: () => Promise<void>;
}

/**
 * scrub() of each value, skipping the strings found clean before; `within` runs the
 * patterns (a session start's time budget, resume/budget.ts).
 */
export async function scrubRemembered<T extends readonly unknown[]>(
  values: T,
  { clean, save }: Remembered,
  within: <R>(work: () => R) => R = (work) => work(),
): Promise<{ [K in keyof T]: Scrubbed<T[K]> }> {
  type Result = { [K in keyof T]: Scrubbed<T[K]> };
  let unseen = false;
  mapStrings(values, (text) => {
    if (!clean.has(text)) unseen = true;
    return text;
  });
  if (!unseen) return values.map((value) => ({ value, kinds: [] })) as Result;
  const [{ scrub }, { redactSecrets }] = await Promise.all([import('./secrets.js'), import('./redact.js')]);
  const redact = (text: string) => {
    if (clean.has(text)) return { text, redactions: [] };
    const redacted = redactSecrets(text);
    if (redacted.redactions.length === 0) clean.add(text);
    return redacted;
  };
  const scrubbed = within(() => values.map((value) => scrub(value, redact)));
  await save();
  return scrubbed as Result;
}
