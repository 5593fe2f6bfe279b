// Adversarial inputs for the secret patterns: long runs of each pattern's own alphabet after
// each of its keywords, the shapes that make a backtracking pattern try every start and
// every split. Shared by the linear-time test and bench/redaction.js (its worst case).

/** Alphabets the patterns are made of: names, keys, spaces, separators and quotes. */
export const ALPHABETS: readonly string[] = [
  'aA0_',
  'abcdefghijklmnopqrstuvwxyz0123456789',
  'Zz9+/=',
  ' \t',
  '.-_',
  '=:"\' ',
  '0123456789',
  '\n ',
  'a.b-c+1',
];

/** `size` characters: `keyword`, then a run of `alphabet`, again and again. */
export function adversarial(keyword: string, alphabet: string, size: number, run = 4096): string {
  let unit = keyword;
  for (let i = 0; unit.length < keyword.length + run; i++) unit += alphabet[i % alphabet.length];
  let out = '';
  while (out.length < size) out += unit;
  return out.slice(0, size);
}

/** The keyword alone, repeated: every position a possible start. */
export function repeated(keyword: string, size: number): string {
  return keyword.repeat(Math.ceil(size / Math.max(1, keyword.length))).slice(0, size);
}
