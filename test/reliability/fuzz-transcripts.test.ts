// Fuzzing the transcript readers: every real fixture, truncated, bit-flipped, spliced with
// the others and salted with traps, goes through format detection and its reader (and
// the readers of the other formats too). Each run ends, with events or with a clear
// refusal; none throws anything else or hangs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HandoffError } from '../../src/core/errors.js';
import { detectFormat } from '../../src/transcripts/detect.js';
import { newStats } from '../../src/transcripts/events.js';
import { READERS } from '../../src/transcripts/readers.js';
import { TRANSCRIPTS } from '../helpers.js';
import { runs, TIMEOUT } from './arbitraries.js';
import { mutate, prng } from './fuzz.js';

const FIXTURES = TRANSCRIPTS;

function transcripts(): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(FIXTURES)) {
    const full = path.join(FIXTURES, dir);
    if (!statSync(full).isDirectory()) continue;
    // The head of each file keeps a run quick; mutations reach every record kind in it.
    for (const name of readdirSync(full)) out.push(readFileSync(path.join(full, name), 'utf8').slice(0, 60_000));
  }
  return out;
}

async function* linesOf(text: string): AsyncIterable<string> {
  for (const line of text.split('\n')) yield line;
}

describe('fuzzing the transcript readers', () => {
  const count = runs(300, 5_000);
  it(
    `${count} mutated transcripts through detection and every reader: events or a clear refusal, never a crash`,
    async () => {
      const inputs = transcripts();
      expect(inputs.length).toBeGreaterThan(5);
      const rand = prng(Number(process.env.HANDOFF_FUZZ_SEED ?? 20261122));
      const crashes: string[] = [];
      let events = 0;
      let detected = 0;
      for (let i = 0; i < count; i++) {
        const input = mutate(inputs[i % inputs.length]!, inputs, rand);
        if (detectFormat(Buffer.from(input.slice(0, 64 * 1024))) !== undefined) detected++;
        for (const [name, read] of Object.entries(READERS)) {
          try {
            for await (const event of read(linesOf(input), newStats())) if (event) events++;
          } catch (error) {
            if (!(error instanceof HandoffError))
              crashes.push(`${name} on input ${i}: ${(error as Error).stack?.split('\n').slice(0, 2).join(' ')}`);
          }
        }
      }
      console.log(
        `fuzz transcripts: ${count} mutated inputs x ${Object.keys(READERS).length} readers, ${detected} still detected, ${events} events, ${crashes.length} crashes`,
      );
      expect(crashes.slice(0, 3)).toEqual([]);
      expect(events).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});
