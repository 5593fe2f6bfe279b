// The keyword prefilter of secret redaction finds, in one pass, exactly the keywords a
// search for each would find: keywords that are prefixes of others, that overlap, that
// repeat, and that hold characters special in a pattern.
import { describe, expect, it } from 'vitest';
import { ALL_RULES, presentKeywords } from '../src/security/redact.js';
import { prng } from './reliability/fuzz.js';

const KEYWORDS = [...new Set(ALL_RULES.flatMap((r) => r.keywords ?? []))];

const byIncludes = (lower: string) => new Set(KEYWORDS.filter((k) => lower.includes(k)));

describe('presentKeywords', () => {
  it('is every keyword lower.includes finds, and no other', () => {
    const seed = 20261124;
    const next = prng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const filler = ['', ' ', 'a', '-', '_', 'x9', '$', '/', '.', '=', ':'];
    const texts = [
      '',
      'account branch budget worker config deploy',
      KEYWORDS.join(''),
      KEYWORDS.join(' '),
      [...KEYWORDS].reverse().join(''),
    ];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      const parts = 1 + Math.floor(next() * 6);
      for (let j = 0; j < parts; j++) {
        const k = pick(KEYWORDS);
        // Whole keywords, their halves and their ends, run together so that they overlap.
        const cut = Math.floor(next() * (k.length + 1));
        text += pick([k, k.slice(0, cut), k.slice(cut)]) + pick(filler);
      }
      texts.push(text);
    }
    expect(texts.length, `seed ${seed}`).toBeGreaterThan(2000);
    for (const text of texts)
      expect(presentKeywords(text), `seed ${seed}: ${JSON.stringify(text)}`).toEqual(byIncludes(text));
    // The generated texts hold keywords that are prefixes of others, so the closure is exercised.
    expect(KEYWORDS.some((k) => KEYWORDS.some((o) => o !== k && o.startsWith(k)))).toBe(true);
  });
});
