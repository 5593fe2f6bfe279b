import { describe, expect, it } from 'vitest';
import { TRANSCRIPTS } from '../helpers.js';
import { runs, TIMEOUT } from './arbitraries.js';
import { fuzz } from './fuzz.js';

describe('fuzzing the front-matter, handoff, pin and config parsers', () => {
  const count = runs(2500, 50_000);
  it(
    `${count} mutated files x 4 parsers: parsed or a one-line error, never a crash`,
    () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.message);
      process.on('warning', onWarning);
      const outcome = fuzz(count, Number(process.env.HANDOFF_FUZZ_SEED ?? 20261122), TRANSCRIPTS);
      console.log(
        `fuzz: ${outcome.inputs} parser runs, ${outcome.parsed} parsed, ${outcome.refused} refused with a one-line error, ${outcome.crashes.length} crashes`,
      );
      process.off('warning', onWarning);
      expect(outcome.crashes.slice(0, 3)).toEqual([]);
      expect(warnings.slice(0, 3)).toEqual([]);
      expect(outcome.parsed).toBeGreaterThan(0);
      expect(outcome.refused).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});
