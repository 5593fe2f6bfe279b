// The learned sentence model: the weights in src/transcripts/sentence-weights.ts are exactly
// what scripts/train-sentences.js makes of the parts of the corpus it trains on (tune, fresh, real-tune) (so nobody edits them by
// hand, and a change to the corpus, the features or the training comes with its weights), the
// weights' text format round-trips, and the floors hold a weak guess back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASSES, type SentenceClass } from '../src/transcripts/sentence-class.js';
import { decide, formatWeights, parseWeights } from '../src/transcripts/sentence-model.js';
import {
  type CorpusRow,
  DEFAULTS,
  renderModel,
  isTrainedOn,
  TRAINED_ON,
  trainModel,
  trainingExamples,
} from '../src/transcripts/sentence-train.js';

const root = path.resolve(__dirname, '..');
const rows = readFileSync(path.join(root, 'test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as CorpusRow);
const trained = trainingExamples(rows);

describe('the sentence model', () => {
  it('is what scripts/train-sentences.js writes from the parts of the corpus it trains on, byte for byte', () => {
    const generated = readFileSync(path.join(root, 'src/transcripts/sentence-weights.ts'), 'utf8');
    expect(renderModel(trainModel(trained, DEFAULTS), DEFAULTS, trained.length)).toBe(generated);
  });

  it('is never trained on the held, unseen or real-held part, nor on the seventh batch', () => {
    expect(TRAINED_ON).not.toContain('held');
    expect(TRAINED_ON).not.toContain('unseen');
    expect(TRAINED_ON).not.toContain('real-held');
    const seventh = rows.filter((r) => r.batch === 7);
    expect(seventh.some((r) => r.split === 'real-tune')).toBe(true);
    expect(seventh.filter(isTrainedOn)).toEqual([]);
    const counted = rows.filter((r) => TRAINED_ON.includes(r.split) && r.batch !== 7).length;
    expect(trained.length).toBe(counted);
    expect(counted).toBeLessThan(rows.length);
  });

  it('writes its weights as text that reads back the same, zeros and negatives included', () => {
    const weights = new Map([
      ['w:drop', Int32Array.from([0, -12, 40, 0, 0, 0, -3])],
      ['b:^_let', Int32Array.from([7, 0, 0, 0, 0, 0, 0])],
    ]);
    const text = formatWeights(weights);
    expect(text).toBe('w:drop\t,-12,40,,,,-3\nb:^_let\t7,,,,,,');
    expect(parseWeights(text)).toEqual(weights);
  });

  it('gives the best class only when it leads the runner-up by its floor', () => {
    const row = (decision: number, none: number) =>
      Int32Array.from(CLASSES.map((c) => (c === 'decision' ? decision : c === 'none' ? none : -50)));
    const floors = Object.fromEntries(CLASSES.map((c) => [c, c === 'decision' ? 30 : 0])) as Record<
      SentenceClass,
      number
    >;
    const model = {
      weights: new Map([
        ['w:go', row(40, 0)],
        ['w:maybe', row(0, 20)],
      ]),
      floors,
    };
    expect(decide(model, ['w:go'])).toBe('decision');
    expect(decide(model, ['w:go', 'w:maybe'])).toBe('none');
  });
});
