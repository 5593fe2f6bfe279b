// Token counts, estimated: what the budgets need (how much of a transcript fits, how big a
// prompt is) without shipping a tokenizer's vocabulary (tens of megabytes) or loading it.
// The text is split as o200k_base's own pre-tokenizer splits it (its published pattern,
// with the case-insensitive contraction group spelled out for engines without inline
// modifiers); each piece is then priced by its kind and length, from the mean number of
// o200k tokens such pieces take. Pieces are where byte-pair encoding starts and the most
// that it merges, so the count follows the text's shape: words, numbers, punctuation,
// indentation. bench/tokens.js measures the error against the exact count on the
// repository's transcripts and prompts; a budget that must not be exceeded keeps a margin.

const CONTRACTION = "'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])";

/** The pattern with Unicode's classes, or (ascii) the same classes restricted to ASCII. */
function piecePattern(ascii: boolean): RegExp {
  const [letter, upper, lower, number] = ascii
    ? ['a-zA-Z', 'A-Z', 'a-z', '0-9']
    : ['\\p{L}', '\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}', '\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}', '\\p{N}'];
  return new RegExp(
    [
      `[^\\r\\n${letter}${number}]?[${upper}]*[${lower}]+(?:${CONTRACTION})?`,
      `[^\\r\\n${letter}${number}]?[${upper}]+[${lower}]*(?:${CONTRACTION})?`,
      `[${number}]{1,3}`,
      ` ?[^\\s${letter}${number}]+[\\r\\n/]*`,
      '\\s*[\\r\\n]+',
      '\\s+(?!\\S)',
      '\\s+',
    ].join('|'),
    ascii ? 'g' : 'gu',
  );
}

// Most text a prompt holds is ASCII. The Unicode pattern costs V8 much more to build and to
// run its first matches than the ASCII one, and a session start counts the prompt in a
// fresh process (bench/hot-paths.js). No ASCII character is in Lt, Lm, Lo or M, so on
// ASCII text the two split alike (test/tokens.test.ts compares them): the Unicode one is
// built only for the text that needs it.
const ASCII_TEXT = /^[\x00-\x7f]*$/;
let asciiPieces: RegExp | undefined;
let unicodePieces: RegExp | undefined;
let unicodeLetter: RegExp | undefined;

const patternFor = (unicode: boolean): RegExp =>
  unicode ? (unicodePieces ??= piecePattern(false)) : (asciiPieces ??= piecePattern(true));

/** The pre-tokenizer's pieces of the text; `unicode` chooses the pattern (by default: whether the text needs it). */
export function pieces(text: string, unicode = !ASCII_TEXT.test(text)): string[] {
  return Array.from(text.matchAll(patternFor(unicode)), (m) => m[0]);
}

/** The expected o200k tokens of one pre-tokenizer piece. */
function price(piece: string): number {
  const ascii = ASCII_TEXT.test(piece);
  if (ascii ? /[a-zA-Z]/.test(piece) : (unicodeLetter ??= /[\p{L}\p{M}]/u).test(piece)) {
    if (!ascii) return Math.max(1, Buffer.byteLength(piece) / 3.5);
    // Common words are one token; long runs of letters are identifiers, hashes, base64.
    const n = piece.length;
    return n <= 12 ? 1 + 0.05 * Math.max(0, n - 2) : 1.5 + 0.3 * (n - 12);
  }
  if (piece.trim() === '') return 1;
  const c = piece.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return 1; // up to three digits
  const n = piece.length;
  return n <= 2 ? 1 : 0.35 * n;
}

/** About how many o200k_base tokens the text is (bench/tokens.js: how close). */
export function estimateTokens(text: string): number {
  let sum = 0;
  for (const m of text.matchAll(patternFor(!ASCII_TEXT.test(text)))) sum += price(m[0]);
  return Math.round(sum);
}
