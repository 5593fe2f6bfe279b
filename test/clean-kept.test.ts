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

  it('remembers a long text and a long list by digest: the file stays small, and only the same text is clean', async () => {
    const dir = tempDir();
    const cacheFile = path.join(dir, 'handoff-cache.json');
    const paths = Array.from({ length: 20_000 }, (_, i) => `lib/d${i % 100}/f${i}.ts`);
    const prompt = `- Files changed since then: ${paths.map((p) => `\`${p}\``).join(', ')}`;
    const list = JSON.stringify(paths);
    const c = openClean(cacheFile, 'rules-1');
    expect(c.clean.has(prompt)).toBe(false);
    c.clean.add(prompt);
    c.lists.add(list);
    c.clean.add('short');
    await c.save();
    const file = path.join(dir, 'handoff-clean.json');
    expect(readFileSync(file, 'utf8').length).toBeLessThan(1000);
    expect(read(file).clean).toEqual(['short']);
    const again = openClean(cacheFile, 'rules-1');
    expect(again.clean.has(prompt)).toBe(true);
    expect(again.lists.has(list)).toBe(true);
    expect(again.clean.has('short')).toBe(true);
    // One character more, or the same characters moved: not the text found clean.
    expect(again.clean.has(`${prompt} `)).toBe(false);
    expect(again.clean.has(prompt.replace('f1.ts', 'f2.ts'))).toBe(false);
    expect(again.lists.has(JSON.stringify(paths.slice(1)))).toBe(false);
    // A list is not a text, nor a text a list.
    expect(again.clean.has(list)).toBe(false);
    expect(again.lists.has(prompt)).toBe(false);
    // Other rules: nothing remembered.
    expect(openClean(cacheFile, 'rules-2').clean.has(prompt)).toBe(false);
  });
});
