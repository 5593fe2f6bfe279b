// The strings secret redaction found clean (store/clean.ts) stay a bounded file whatever
// the history: all of the last run's (the longer ones by their digest), and of the others
// only the newest short ones up to a size and longer ones by their digest.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openClean } from '../src/store/clean.js';
import { tempDir } from './helpers.js';

const read = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as { rules: string; clean: string[]; long: string[] };

describe('the clean strings remembered beside the cache', () => {
  it("keeps every string of the last run, the short ones whole, and others' short ones whole up to a size, longer ones by digest", async () => {
    const dir = tempDir();
    const cacheFile = path.join(dir, 'handoff-cache.json');
    const file = path.join(dir, 'handoff-clean.json');
    const text = (run: number, n: number) => `run ${run} string ${n} `.padEnd(2000, '.');
    const short = (run: number, n: number) => `run ${run} short ${n} `.padEnd(200, '.');
    for (let run = 0; run < 10; run++) {
      const c = openClean(cacheFile, 'rules-1');
      for (let n = 0; n < 20; n++) c.clean.add(text(run, n));
      for (let n = 0; n < 20; n++) c.clean.add(short(run, n));
      await c.save();
    }
    const { rules, clean, long } = read(file);
    expect(rules).toBe('rules-1');
    // The last run's twenty short ones, all of them, whole and first.
    expect(clean.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => short(9, n)));
    // Then the short ones of the runs before, newest first, up to 16 KiB of characters.
    const others = clean.slice(20);
    expect(others).toHaveLength(Math.floor((16 * 1024) / 200));
    expect(others.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => short(8, n)));
    expect(others.every((t) => t.length === 200)).toBe(true);
    // The long ones by their digest only: the last run's twenty, then those of the runs before up to a count.
    expect(long).toHaveLength(20 + 128);
    expect(long.every((d) => /^[A-Za-z0-9+/]{43}=$/.test(d))).toBe(true);
    expect(readFileSync(file, 'utf8').length).toBeLessThan(20 * 200 + 148 * 50 + 17 * 1024);
    const again = openClean(cacheFile, 'rules-1');
    expect(again.clean.has(text(9, 0))).toBe(true);
    expect(again.clean.has(text(8, 0))).toBe(true);
    expect(again.clean.has(text(3, 19))).toBe(true);
    expect(again.clean.has(short(8, 0))).toBe(true);
    expect(again.clean.has(text(0, 0))).toBe(false);
    expect(again.clean.has(short(0, 0))).toBe(false);
    expect(again.clean.has(`${text(8, 0)}.`)).toBe(false);
    // Found by its digest, a text is kept by it first at the next save, and not whole.
    again.clean.add('new');
    await again.save();
    const after = read(file);
    expect(after.clean).toContain('new');
    expect(after.clean.some((t) => t.length > 512)).toBe(false);
    expect(after.long).toHaveLength(3 + 128);
    expect(new Set(after.long).size).toBe(after.long.length);
    const last = openClean(cacheFile, 'rules-1');
    for (const t of [text(9, 0), text(8, 0), text(3, 19)]) expect(last.clean.has(t)).toBe(true);
    // Other rules: nothing remembered.
    expect(openClean(cacheFile, 'rules-2').clean.has(text(9, 0))).toBe(false);
  });

  it("reads what an earlier version wrote (other runs' long texts whole), and keeps those by digest at its next save", async () => {
    const dir = tempDir();
    const cacheFile = path.join(dir, 'handoff-cache.json');
    const file = path.join(dir, 'handoff-clean.json');
    const prompt = 'a prompt of an earlier run '.padEnd(6000, '-');
    writeFileSync(
      file,
      JSON.stringify({ rules: 'rules-1', clean: [prompt, 'pin'], lists: ['["a"]'], long: [], longLists: [] }),
    );
    const c = openClean(cacheFile, 'rules-1');
    expect(c.lists.has('["a"]')).toBe(true);
    c.clean.add('another prompt');
    await c.save();
    const { clean, long } = read(file);
    expect(clean).toEqual(['another prompt', 'pin']);
    expect(long).toHaveLength(1);
    expect(read(file)).toMatchObject({ lists: ['["a"]'] });
    const next = openClean(cacheFile, 'rules-1');
    expect(next.clean.has(prompt)).toBe(true);
    expect(next.clean.has(prompt.replace('earlier', 'earliest'))).toBe(false);
    expect(next.clean.has('pin')).toBe(true);
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
