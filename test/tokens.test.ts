// The token estimate against exact o200k_base counts of fixed texts: the fixture
// transcripts (stable files) and a few short strings. The exact counts were taken with
// gpt-tokenizer 4.0.0 (o200k_base, special tokens counted as text), as bench/tokens.js
// takes them; that bench reports the full comparison.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTokens, pieces } from '../src/transcripts/tokens.js';
import { TRANSCRIPTS } from './helpers.js';
import { prng } from './reliability/fuzz.js';

const FILES: Array<[string, number]> = [
  ['specstory/2025-06-30_12-46-48Z-fix-unknown-field-error-in-api-request.md', 577],
  ['specstory/2026-02-23_23-01-52Z-all-provider-specific-token.md', 21259],
  ['gemini-cli/session-gemini-0.61.0-sum.jsonl', 3231],
  ['pi/pi-0.73.1-sum.jsonl', 1068],
  ['codex/rollout-codex-0.169.0-sum.jsonl', 13910],
  ['claude-code/codemie-4c2ddfdc-v2.0.64.jsonl', 6366],
  ['aider/aider-chat-history-2024-08-slice.md', 115893],
];

const error = (estimate: number, exact: number) => Math.abs(estimate - exact) / exact;

describe('the token estimate', () => {
  it('is within 10% of the exact count on each real transcript, and within 3% over all of them', () => {
    let estimated = 0;
    let exact = 0;
    for (const [file, count] of FILES) {
      const estimate = estimateTokens(readFileSync(path.join(TRANSCRIPTS, file), 'utf8'));
      expect(error(estimate, count), `${file}: ${estimate} estimated, ${count} exact`).toBeLessThan(0.1);
      estimated += estimate;
      exact += count;
    }
    expect(error(estimated, exact)).toBeLessThan(0.03);
  });

  it('counts short texts of each kind close to exactly', () => {
    expect(estimateTokens('')).toBe(0);
    for (const [text, count] of [
      ['hello world', 2],
      ['Never edit the generated client. Add retries.', 9],
      ['日本語のテキストです', 7],
      ['    const x = await fetch(url, { method: "POST" });\n', 15],
    ] as const)
      expect(Math.abs(estimateTokens(text) - count), text).toBeLessThanOrEqual(Math.ceil(count * 0.25));
  });
});

describe('the token estimate, as a bound', () => {
  // The resume prompt counts nothing when its characters fit the budget (resume/budget.ts).
  it('is never more than the text has characters', () => {
    const seed = 27;
    const random = prng(seed);
    const alphabet = [
      'a',
      'Z',
      '7',
      ' ',
      '\n',
      '\r',
      '\t',
      '.',
      '-',
      "'",
      '…',
      'é',
      '日',
      '😀',
      '\u0301',
      '\ud800',
      '\u2028',
    ];
    for (let i = 0; i < 500; i++) {
      let text = '';
      for (let n = Math.floor(random() * 60); n > 0; n--) {
        const c = alphabet[Math.floor(random() * alphabet.length)]!;
        text += random() < 0.3 ? c.repeat(1 + Math.floor(random() * 20)) : c;
      }
      expect(estimateTokens(text), `seed ${seed}: ${JSON.stringify(text)}`).toBeLessThanOrEqual(text.length);
    }
    for (const [file] of FILES) {
      const text = readFileSync(path.join(TRANSCRIPTS, file), 'utf8');
      expect(estimateTokens(text)).toBeLessThanOrEqual(text.length);
    }
  });
});

describe('the ASCII pattern', () => {
  // ASCII text is split by the pattern restricted to ASCII (tokens.ts): the pieces must be
  // the ones the Unicode pattern gives, on real text and on every ASCII character.
  it('splits ASCII text as the Unicode pattern does', () => {
    const texts = FILES.map(([file]) =>
      readFileSync(path.join(TRANSCRIPTS, file), 'utf8').replace(/[^\x00-\x7f]/g, ''),
    );
    const seed = 26;
    const random = prng(seed);
    for (let i = 0; i < 200; i++) {
      let text = '';
      for (let n = Math.floor(random() * 200); n > 0; n--) {
        // Runs of one class as often as single characters: words, numbers, spaces, punctuation.
        const c = String.fromCharCode(Math.floor(random() * 128));
        text += random() < 0.3 ? c.repeat(1 + Math.floor(random() * 5)) : c;
      }
      texts.push(text, `${text}'s ${text}'LL\r\n`);
    }
    for (const text of texts) {
      expect(pieces(text, false), `seed ${seed}`).toEqual(pieces(text, true));
    }
  });
});
