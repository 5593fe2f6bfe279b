// Every secret pattern runs in linear time: JavaScript's regular expressions backtrack, so a
// pattern with nested or unbounded repetition can take quadratic (or worse) time on text made
// of its own alphabet, and redaction runs on whatever a transcript or a committed file holds.
// Each pattern's worst input (the slowest of its adversarial inputs, adversarial.ts) is run
// at 2n and 8n characters: linear work takes about 4 times as long, quadratic 16. No absolute
// time is asserted: only the ratio, measured over enough repetitions to rise above noise,
// with two and a half times the linear share allowed for a loaded machine.
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../src/security/redact.js';
import { ALPHABETS, adversarial, repeated } from './adversarial.js';

const N = 1 << 12;
/** Linear work grows 4 times from 2n to 8n; quadratic, 16 times. */
const LIMIT = 10;

function inputs(keyword: string): Array<(n: number) => string> {
  return [
    ...ALPHABETS.map((a) => (n: number) => adversarial(keyword, a, n)),
    ...ALPHABETS.map((a) => (n: number) => adversarial(keyword, a, n, 16)),
    ...ALPHABETS.map((a) => (n: number) => adversarial(keyword, a, n, n)),
    (n: number) => repeated(keyword || 'a', n),
  ];
}

function once(pattern: RegExp, text: string): number {
  const start = performance.now();
  for (const _ of text.matchAll(pattern));
  return performance.now() - start;
}

/** Time per run, over as many runs as fill a few milliseconds (the least of two tries). */
function perRun(pattern: RegExp, text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 2; attempt++) {
    let runs = 0;
    const start = performance.now();
    while (performance.now() - start < 5) once(pattern, text), runs++;
    best = Math.min(best, (performance.now() - start) / runs);
  }
  return best;
}

/** The ratio of time on 8n to time on 2n characters of the pattern's worst input (the slowest
 *  at 8n: at small sizes a quadratic input can hide in the noise), measured up to three times:
 *  the least when the question is whether it stays under the limit, the greatest when it is
 *  whether it goes over. A pause of the machine spoils one measurement, in either direction. */
function growth(
  source: string,
  keywords: readonly string[] | undefined,
  n = N,
  want: 'under' | 'over' = 'under',
): number {
  const pattern = new RegExp(source, 'g');
  let worst = { time: -1, make: (n: number) => String(n) };
  for (const keyword of keywords?.length ? keywords : ['']) {
    for (const make of inputs(keyword)) {
      const time = once(pattern, make(8 * n));
      if (time > worst.time) worst = { time, make };
    }
  }
  const small = worst.make(2 * n);
  const large = worst.make(8 * n);
  // V8 first interprets a pattern and compiles it after some runs: both sizes run before any is timed.
  once(pattern, large);
  once(pattern, small);
  const under = want === 'under';
  let kept = under ? Number.POSITIVE_INFINITY : 0;
  for (let i = 0; i < 3 && (under ? kept > LIMIT : kept <= LIMIT); i++) {
    const ratio = perRun(pattern, large) / perRun(pattern, small);
    kept = under ? Math.min(kept, ratio) : Math.max(kept, ratio);
  }
  return kept;
}

describe(`secret patterns: linear time on adversarial input (${ALL_RULES.length} rules)`, () => {
  it('no pattern takes more than two and a half times the linear share of time on 4 times the input', () => {
    const superlinear: string[] = [];
    for (const rule of ALL_RULES) {
      const g = growth(rule.source, rule.keywords);
      if (g > LIMIT) superlinear.push(`${rule.id}: ${g.toFixed(1)}x on 4x the input`);
    }
    expect(superlinear).toEqual([]);
  });

  it('the check catches a quadratic pattern: the password-in-URL pattern this replaced', () => {
    expect(growth(String.raw`\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:([^\s@/]+)@`, ['://'], 2048, 'over')).toBeGreaterThan(
      LIMIT,
    );
  });

  it('the inputs are what they claim: n characters, made of the keyword and the alphabet', () => {
    const text = adversarial('key', 'ab', 100, 10);
    expect(text.length).toBe(100);
    expect(text.startsWith('keyabababab')).toBe(true);
    expect(new Set(text)).toEqual(new Set('keyab'));
    expect(repeated('sk-', 7)).toBe('sk-sk-s');
  });
});
