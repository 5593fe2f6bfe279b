// Redaction at every session start, remembered. An unchanged repository gives the same
// resume prompt at each session start, and running every secret pattern over it costs
// more than the rest of the session start (loading the patterns and their first run;
// bench/hot-paths.js measures both cases). So each string found clean (the whole prompt,
// each string of its parts) is remembered, whole, never as a hash: the same string again
// is clean, by string comparison. When every string was seen clean before, the patterns
// are not even loaded; otherwise only the new strings are redacted (after a commit: the
// prompt and the part that says what happened since). Nothing with a secret in it is
// remembered.
//
// The strings live in their own small file beside the cache (handoff-clean.json in the
// git directory), keyed by RULES rather than by the tool's version: two installs side by
// side (a global one and a project's) each throw away the other's cache, but they share
// this list as long as their rules are the same.
import path from 'node:path';
import { readTextNow, writeDisposable } from '../store/fs.js';
import type { Scrubbed } from './secrets.js';
import { mapStrings } from './strings.js';

/** The identity of the redaction rules: change it whenever redact.ts's patterns or its pinned preset change. */
export const RULES = 'redact-1';
/** Its name in the git directory, beside the cache. */
export const CLEAN_FILE = 'handoff-clean.json';
/** How many clean texts are remembered: a resume prompt and the strings of its parts make about 20. */
const KEPT = 64;

/** The clean strings remembered for these rules; none when the file is missing, unreadable or for other rules. */
export function readClean(file: string): string[] {
  try {
    const data = JSON.parse(readTextNow(file) ?? '{}') as { rules?: unknown; clean?: unknown };
    if (data.rules === RULES && Array.isArray(data.clean))
      return data.clean.filter((t): t is string => typeof t === 'string');
  } catch {
    // unreadable: nothing remembered
  }
  return [];
}

/** scrub() of each value, skipping the strings found clean before. */
export async function scrubRemembered<T extends readonly unknown[]>(
  values: T,
  cacheFile: string | null,
): Promise<{ [K in keyof T]: Scrubbed<T[K]> }> {
  type Result = { [K in keyof T]: Scrubbed<T[K]> };
  const file = cacheFile && path.join(path.dirname(cacheFile), CLEAN_FILE);
  const known = new Set(file ? readClean(file) : []);
  // Those this run meets come first when the list is written back, so the newest stay.
  const used = new Set<string>();
  let unseen = false;
  mapStrings(values, (text) => {
    if (known.has(text)) used.add(text);
    else unseen = true;
    return text;
  });
  if (!unseen) return values.map((value) => ({ value, kinds: [] })) as Result;
  const [{ scrub }, { redactSecrets }] = await Promise.all([import('./secrets.js'), import('./redact.js')]);
  const redact = (text: string) => {
    if (known.has(text) || used.has(text)) return { text, redactions: [] };
    const redacted = redactSecrets(text);
    if (redacted.redactions.length === 0) used.add(text);
    return redacted;
  };
  const scrubbed = values.map((value) => scrub(value, redact));
  if (file) {
    const clean = [...used, ...[...known].filter((t) => !used.has(t))].slice(0, KEPT);
    await writeDisposable(file, JSON.stringify({ rules: RULES, clean }));
  }
  return scrubbed as Result;
}
