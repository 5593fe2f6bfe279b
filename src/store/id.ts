// Ids are lowercase ULIDs: 48 bits of milliseconds then 80 random bits, in Crockford
// base32. Unique without coordination, sorted by creation time as plain strings, and
// safe as file names everywhere (no case-only differences, no punctuation).
import { HandoffError, UsageError } from '../core/errors.js';

const ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/;
const PREFIX_PATTERN = /^[0-9a-hjkmnp-tv-z]+$/;
const SHORT = 8;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Resolves an id or a unique prefix of one, like git does for short hashes. */
export function resolveId(query: string, ids: readonly string[], kind: 'handoff' | 'pin'): string {
  const q = query.trim().toLowerCase();
  if (!PREFIX_PATTERN.test(q)) {
    throw new UsageError(
      `'${query}' is not a ${kind} id: expected letters and digits such as ${ids[0]?.slice(0, SHORT) ?? '01jx7k2m'}`,
    );
  }
  const matches = ids.filter((id) => id.startsWith(q));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new HandoffError(`no ${kind} matches '${query}' (handoff ${kind === 'pin' ? 'pins' : 'list'} shows them)`);
  const shown = matches
    .slice(0, 5)
    .map((id) => shortId(id, ids))
    .join(', ');
  throw new HandoffError(
    `'${query}' is ambiguous: it matches ${matches.length} ${kind}s (${shown}${matches.length > 5 ? ', ...' : ''}); give more characters`,
  );
}

/** The shortest prefix (at least 8 characters) that no other id shares. */
export function shortId(id: string, ids: readonly string[]): string {
  let length = SHORT;
  for (const other of ids) {
    if (other === id) continue;
    let common = 0;
    while (common < id.length && id[common] === other[common]) common++;
    length = Math.max(length, common + 1);
  }
  return id.slice(0, Math.min(length, id.length));
}
