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

/** How many first characters `a` and `b` share; 0 when there is no `a`. */
function shared(a: string | undefined, b: string): number {
  let i = 0;
  if (a === undefined) return 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** In sorted order an id shares its longest prefix with a neighbour: the shortest prefix (at least `min`) neither shares. */
function prefixAt(sorted: readonly string[], i: number, min: number): string {
  const id = sorted[i]!;
  const length = Math.max(min, shared(sorted[i - 1], id) + 1, shared(sorted[i + 1], id) + 1);
  return id.slice(0, Math.min(length, id.length));
}

/**
 * shortId() for every id at once, from neighbours in sorted order: O(n log n) where calling
 * shortId per id is O(n^2) (bench/team.js measures `list` at 30,000 handoffs).
 */
export function uniquePrefixes(ids: readonly string[], min = 8): Map<string, string> {
  // A tree's ids come sorted (tree.ts parseTree): checked, not sorted again.
  const unique = [...new Set(ids)];
  const sorted = ascending(unique) ? unique : unique.sort();
  const out = new Map<string, string>();
  sorted.forEach((id, i) => out.set(id, prefixAt(sorted, i, min)));
  return out;
}

/**
 * uniquePrefixes() asked one id at a time, for a caller that shows a few ids of many (the
 * roadmap, of a year's handoffs): the same answer, an id's neighbours found by binary
 * search in sorted order, no prefix made for an id nobody asks about; undefined for an id
 * not among `ids`.
 */
export function prefixLookup(ids: readonly string[], min = 8): (id: string) => string | undefined {
  const sorted = ascending(ids) ? ids : [...new Set(ids)].sort();
  return prefixLookupIn([(id) => placeIn(sorted, id)], min);
}

/** Where an id stands in a strictly ascending list: whether the list holds it, and the ids just before and after it there. */
export interface Place {
  here: boolean;
  before: string | undefined;
  after: string | undefined;
}

export function placeIn(list: readonly string[], id: string): Place {
  const at = sortedIndex(list, id);
  const here = list[at] === id;
  return { here, before: list[at - 1], after: list[here ? at + 1 : at] };
}

/**
 * prefixLookup over several strictly ascending lists, each given by where an id stands in
 * it, as over their union (an id in two counts once): a year's closed ids, kept by folder
 * (store/history-view.ts), and the few others, neither copied nor merged. An id's
 * neighbours in the union are among its neighbours in each list, and in sorted order the
 * longest prefix an id shares is with a neighbour.
 */
export function prefixLookupIn(
  lists: ReadonlyArray<(id: string) => Place>,
  min = 8,
): (id: string) => string | undefined {
  return (id) => {
    let found = false;
    let longest = 0;
    for (const placeOf of lists) {
      const p = placeOf(id);
      found ||= p.here;
      longest = Math.max(longest, shared(p.before, id), shared(p.after, id));
    }
    return found ? id.slice(0, Math.min(Math.max(min, longest + 1), id.length)) : undefined;
  };
}

/** Strictly ascending: sorted, and no id twice. */
export function ascending(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i - 1]! >= ids[i]!) return false;
  return true;
}

/** Where `name` is, or goes, in sorted `names` (binary search). */
export function sortedIndex(names: readonly string[], name: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]! < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The time an id was made, in milliseconds: its first 10 characters. */
export function idTime(id: string): number {
  let ms = 0;
  for (let i = 0; i < 10 && i < id.length; i++) {
    const c = id.charCodeAt(i);
    ms = ms * 32 + (c < 128 ? CROCKFORD_DIGIT[c]! : -1);
  }
  return ms;
}

/** The latest time whose ISO text has a four-digit year (9999-12-31T23:59:59.999Z), and one past it. */
const YEAR_10000 = 253_402_300_800_000;
const DAY_MS = 86_400_000;

/**
 * A time in milliseconds as Date's toISOString writes it (`2026-11-24T10:00:00.000Z`),
 * computed without a Date: the items cache gives a year of handoffs their `created` so at
 * each `check`. A time outside the years 0000 to 9999, or not in whole milliseconds, goes
 * to Date. The calendar from the day count: the civil-from-days algorithm (H. Hinnant).
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000) || ms % 1 !== 0) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const min = Math.floor(rest / 60_000);
  rest -= min * 60_000;
  const s = Math.floor(rest / 1000);
  rest -= s * 1000;
  // One flat string of character codes: a template literal of the parts would be a rope of them.
  const d0 = (n: number) => 48 + Math.floor(n / 10);
  const d1 = (n: number) => 48 + (n % 10);
  const c = Math.floor(y / 100);
  const yy = y % 100;
  return String.fromCharCode(
    d0(c),
    d1(c),
    d0(yy),
    d1(yy),
    45,
    d0(m),
    d1(m),
    45,
    d0(d),
    d1(d),
    84,
    d0(h),
    d1(h),
    58,
    d0(min),
    d1(min),
    58,
    d0(s),
    d1(s),
    46,
    48 + Math.floor(rest / 100),
    d0(rest % 100),
    d1(rest),
    90,
  );
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
/** Each ASCII character's digit (its index in CROCKFORD), -1 for none: a year of ids is timed at each `check`. */
const CROCKFORD_DIGIT = Int8Array.from({ length: 128 }, (_, c) => CROCKFORD.indexOf(String.fromCharCode(c)));

/** The dated folder of a handoff, `YYYY-MM/DD`, from its id (UTC). */
export function datedFolder(id: string): string {
  const iso = new Date(idTime(id)).toISOString();
  return `${iso.slice(0, 7)}/${iso.slice(8, 10)}`;
}
