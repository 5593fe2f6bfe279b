// Redaction at every session start, remembered. An unchanged repository gives the same
// resume prompt at each session start, and running every secret pattern over it costs
// more than the rest of the session start (loading the patterns and their first run,
// about 15 ms). So values found clean are remembered in the one cache (store/cache.ts),
// as their whole JSON text: the same text again is clean, by string comparison, without
// loading the patterns. Nothing with a secret in it is remembered, and a different tool
// build (other patterns) starts with none remembered.
import { openCache } from '../store/cache.js';
import type { Scrubbed } from './secrets.js';

/** scrub() of each value, skipped when the very same values were found clean before. */
export async function scrubRemembered<T extends readonly unknown[]>(values: T, cacheFile: string | null): Promise<{ [K in keyof T]: Scrubbed<T[K]> }> {
  type Result = { [K in keyof T]: Scrubbed<T[K]> };
  const opened = await openCache(cacheFile);
  const text = JSON.stringify(values);
  if (opened.clean.has(text)) return values.map((value) => ({ value, kinds: [] })) as Result;
  const { scrub } = await import('./secrets.js');
  const scrubbed = values.map(scrub);
  if (scrubbed.every((s) => s.kinds.length === 0)) {
    opened.clean.add(text);
    await opened.save();
  }
  return scrubbed as Result;
}
