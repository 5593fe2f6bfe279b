// A folder's handoff names stored short (folder-names.ts keeps them by folder): what they all
// begin with (a day's ids share their first characters: the time they were made) and the rest
// of each; when they are all ids, each rest in base 91 (packId), one after another, where the
// Crockford base-32 characters took a sixth more and a separator each. The same names always
// pack the same way, so the packed form is also their key (namesKey: a writer's record compares
// a year of closed names by it, git-hooks/record-next.ts, without cutting them into strings). Pure.
import { digitOf } from './cache-meta.js';
import { isId } from './id.js';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
/** Base-91 digits for k Crockford characters (5k bits), k = 0 to 8: the fewest that hold them. */
const WIDTH = [0, 1, 2, 3, 4, 4, 5, 6, 7];
/** Characters a packed rest of `length` Crockford characters takes: 8 at a time (40 bits, exact in a double). */
export const widthOf = (length: number) => 7 * Math.floor(length / 8) + WIDTH[length % 8]!;

/** Each Crockford character's value, by its character code. */
const VALUE = new Uint8Array(128);
for (let i = 0; i < CROCKFORD.length; i++) VALUE[CROCKFORD.charCodeAt(i)] = i;

/**
 * Crockford base-32 characters (the rest of an id, from `from` in `id`) in base-91 digits
 * (cache-meta.ts digit), 8 at a time, written as character codes into `out` at `at`; where
 * the next one goes.
 */
function packId(id: string, from: number, out: Uint8Array, at: number): number {
  for (let start = from; start < id.length; start += 8) {
    const end = Math.min(start + 8, id.length);
    let n = 0;
    for (let i = start; i < end; i++) n = n * 32 + VALUE[id.charCodeAt(i)]!;
    for (let w = WIDTH[end - start]!; w > 0; w--) {
      // n is past 31 bits, so a double: `n % 91` would be a call to fmod, a third of a record.
      const q = Math.floor(n / 91);
      const d = n - q * 91;
      out[at++] = d + 35 >= 92 ? d + 36 : d + 35; // cache-meta.ts digit
      n = q;
    }
  }
  return at;
}

/** What packId made of `length` characters, back. */
export function unpackId(packed: string, length: number): string {
  let out = '';
  for (let at = 0, left = length; left > 0; left -= 8) {
    const k = Math.min(8, left);
    let n = 0;
    for (let w = WIDTH[k]! - 1; w >= 0; w--) n = n * 91 + digitOf(packed.charCodeAt(at + w));
    at += WIDTH[k]!;
    let chunk = '';
    for (let i = 0; i < k; i++) {
      chunk = CROCKFORD[n % 32] + chunk;
      n = Math.floor(n / 32);
    }
    out += chunk;
  }
  return out;
}

/**
 * Sorted names packed: nothing for none; else what they begin with and the rests (ids: each
 * packed, and how many characters each rest has; other names: joined by `/`, never in a name).
 */
export function packNames(
  names: readonly string[],
): [] | [common: string, rests: string] | [common: string, rests: string, length: number] {
  if (names.length === 0) return [];
  // What the first and the last begin with, all of them do (sorted); at most 25 characters:
  // each name keeps one after them.
  const first = names[0]!;
  const last = names[names.length - 1]!;
  let shared = 0;
  while (shared < 25 && shared < first.length && first.charCodeAt(shared) === last.charCodeAt(shared)) shared++;
  const common = first.slice(0, shared);
  if (names.every((n) => isId(n))) {
    // A year of ids is packed for every record (git-hooks/record-next.ts): codes into one buffer, one string.
    const length = 26 - common.length;
    const out = new Uint8Array(names.length * widthOf(length));
    let at = 0;
    for (const n of names) at = packId(n, common.length, out, at);
    return [common, Buffer.from(out.buffer, 0, at).toString('latin1'), length];
  }
  return [common, names.map((n) => n.slice(common.length)).join('/')];
}

/** The key of a packed form: equal keys, equal names. */
export const packedKey = (packed: readonly (string | number | undefined)[]) => packed.join('\0');

/** The key of sorted names (packedKey of packNames). */
export const namesKey = (names: readonly string[]) => packedKey(packNames(names));
