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
const PIECE = new RegExp(
  [
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:${CONTRACTION})?`,
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:${CONTRACTION})?`,
    '\\p{N}{1,3}',
    ' ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*',
    '\\s*[\\r\\n]+',
    '\\s+(?!\\S)',
    '\\s+',
  ].join('|'),
  'gu',
);
const LETTER = /[\p{L}\p{M}]/u;
const ASCII = /^[\x00-\x7f]*$/;

/** The expected o200k tokens of one pre-tokenizer piece. */
function price(piece: string): number {
  if (LETTER.test(piece)) {
    if (!ASCII.test(piece)) return Math.max(1, Buffer.byteLength(piece) / 3.5);
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
  for (const m of text.matchAll(PIECE)) sum += price(m[0]);
  return Math.round(sum);
}
