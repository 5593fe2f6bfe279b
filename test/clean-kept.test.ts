// The strings secret redaction found clean (store/clean.ts) stay a bounded file whatever
// the history: all of the last run's, and of the others only the newest up to a size.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openClean } from '../src/store/clean.js';
import { tempDir } from './helpers.js';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { rules: string; clean: string[] };

describe('the clean strings remembered beside the cache', () => {
  it("keeps every string of the last run, and others' only up to a size, the newest first", async () => {
    const dir = tempDir();
    const cacheFile = path.join(dir, 'handoff-cache.json');
    const text = (run: number, n: number) => `run ${run} string ${n} `.padEnd(2000, '.');
    for (let run = 0; run < 10; run++) {
      const c = openClean(cacheFile, 'rules-1');
      for (let n = 0; n < 20; n++) c.clean.add(text(run, n));
      await c.save();
    }
    const { rules, clean } = read(path.join(dir, 'handoff-clean.json'));
    expect(rules).toBe('rules-1');
    // The last run's twenty, all of them, first.
    expect(clean.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => text(9, n)));
    // Then the run before's, newest first, up to 64 KiB of characters.
    const others = clean.slice(20);
    expect(others).toHaveLength(Math.floor((64 * 1024) / 2000));
    expect(others.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => text(8, n)));
    expect(others.slice(20).every((t) => t.startsWith('run 7 '))).toBe(true);
    const again = openClean(cacheFile, 'rules-1');
    expect(again.clean.has(text(8, 0))).toBe(true);
    expect(again.clean.has(text(0, 0))).toBe(false);
    // Other rules: nothing remembered.
    expect(openClean(cacheFile, 'rules-2').clean.has(text(9, 0))).toBe(false);
  });
});
