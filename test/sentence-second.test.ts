// The second labeller's labels (test/fixtures/sentence-corpus-second.jsonl) stay usable by
// bench/agreement.js: each names a real row of the corpus by its exact text, once, with a class
// of the rubric; an unsure label names the other class it weighed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASSES } from '../src/transcripts/sentence-class.js';

const read = (name: string) => {
  const text = readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
  expect(text.endsWith('\n'), name).toBe(true);
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
};

describe('the second labeller', () => {
  it('labels real corpus rows, each once, by a class of the rubric', () => {
    const corpus = new Map(read('sentence-corpus.jsonl').map((row) => [row.text, row]));
    const second = read('sentence-corpus-second.jsonl');
    expect(second.length).toBeGreaterThanOrEqual(400);
    const seen = new Set<string>();
    for (const row of second) {
      const where = `sentence-corpus-second.jsonl: ${JSON.stringify(row.text)}`;
      expect(
        Object.keys(row).every((k) => ['text', 'class', 'sure', 'alt'].includes(k)),
        where,
      ).toBe(true);
      expect(corpus.get(row.text)?.style, where).toMatch(/^real-/);
      expect(seen.has(row.text), `${where} appears twice`).toBe(false);
      seen.add(row.text);
      expect(CLASSES, where).toContain(row.class);
      if (row.sure === false && row.alt !== undefined) expect(CLASSES, where).toContain(row.alt);
      else expect(row.sure, where).toBeUndefined();
    }
  });
});
