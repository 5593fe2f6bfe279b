// Token counts: the only importer of gpt-tokenizer (o200k_base; same counts as
// js-tiktoken, far cheaper to start). Loaded lazily: ~190 ms to import, so never on the
// path of a git hook or an agent's session-start hook.
// Special tokens such as <|endoftext|> are counted as plain text: agent transcripts
// contain them, and the library throws on them unless told otherwise.

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

export function loadTokenCounter(): Promise<Counter> {
  counter ??= import('gpt-tokenizer').then(
    ({ countTokens }) =>
      (text: string) =>
        countTokens(text, { disallowedSpecial: new Set() }),
  );
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}

// The estimate below is the one branch 'install' brings (the same code): the resume prompt's
// budget counts with it, since a session start must not load a tokenizer.
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
