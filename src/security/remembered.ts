// Redaction at every session start, remembered. An unchanged repository gives the same
// resume prompt at each session start, and running every secret pattern over it costs
// more than the rest of the session start (loading the patterns and their first run;
// bench/hot-paths.js measures both cases). So each string found clean (the whole prompt,
// each string of its parts) is remembered (store/clean.ts), whole, or by its SHA-256
// digest when it is long: the same string again is clean, by comparison of the strings or
// of their digests. A list of strings alone (the paths
// that changed since the handoff, the first of them: resume/since.ts bounded) is remembered
// as one entry, its JSON text, so that what is remembered stays a few entries however
// long the lists. When every string was seen clean before, the patterns are not even
// loaded; otherwise only the new strings and lists are redacted (after a commit: the
// prompt and the part that says what happened since). Nothing with a secret in it is
// remembered, and other rules (RULES) start with nothing remembered.
import type { Scrubbed } from './secrets.js';
import type { Redacted } from './redact.js';
import { eachText } from './strings.js';

/**
 * The identity of the redaction rules, which the remembered strings are kept under (not
 * the tool's version, so installs of other versions side by side share them): change it
 * whenever the rules change (redact.ts,
 * extra-rules.ts, gitleaks-rules.ts).
 */
export const RULES = 'redact-2';

/** Texts found clean, asked and added; `add` marks one kept. */
interface Known {
  has(text: string): boolean;
  add(text: string): void;
}

/** Where the clean strings are kept (store/clean.ts), opened by the caller. */
export interface Remembered {
  clean: Known;
  /** Lists of strings found clean, each by its JSON text. */
  lists: Known;
  save: () => Promise<void>;
}

const listKey = (list: readonly string[]) => JSON.stringify(list);

/**
 * scrub() of each value, skipping the strings and lists found clean before; `within` runs
 * the patterns (a session start's time budget, resume/budget.ts).
 */
export async function scrubRemembered<T extends readonly unknown[]>(
  values: T,
  { clean, lists, save }: Remembered,
  within: <R>(work: () => R) => R = (work) => work(),
): Promise<{ [K in keyof T]: Scrubbed<T[K]> }> {
  type Result = { [K in keyof T]: Scrubbed<T[K]> };
  let unseen = false;
  // Each is asked, none skipped: what a run asks is what it keeps (store/clean.ts).
  eachText(
    values,
    (text) => {
      if (!clean.has(text)) unseen = true;
    },
    (list) => {
      if (!lists.has(listKey(list))) unseen = true;
    },
  );
  if (!unseen) return values.map((value) => ({ value, kinds: [] })) as Result;
  const [{ scrub }, { redactSecrets }] = await Promise.all([import('./secrets.js'), import('./redact.js')]);
  const found = new Map<string, Redacted>();
  const redact = (text: string): Redacted => {
    if (clean.has(text)) return { text, redactions: [] };
    let redacted = found.get(text);
    if (!redacted) found.set(text, (redacted = redactSecrets(text)));
    return redacted;
  };
  const scrubbed = within(() => values.map((value) => scrub(value, redact)));
  const isClean = (text: string) => (found.get(text)?.redactions.length ?? 0) === 0;
  eachText(
    values,
    (text) => {
      if (found.has(text) && isClean(text)) clean.add(text);
    },
    (list) => {
      if (list.every(isClean)) lists.add(listKey(list));
    },
  );
  await save();
  return scrubbed as Result;
}
