// Constraint detection against the labelled user sentences of the real transcript
// fixtures: the figures themselves are printed by bench/constraints.js; this keeps the
// detector from sliding back (chatter offered as a rule, or the rules it finds now lost).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConstraint } from '../src/transcripts/extract.js';

const { sentences } = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/constraint-sentences.json'), 'utf8')) as {
  sentences: Array<{ source: string; line: number; constraint: boolean; text: string }>;
};

describe('constraint detection on labelled sentences', () => {
  it('finds most lasting rules and few others', () => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const s of sentences) {
      const said = isConstraint(s.text);
      if (said && s.constraint) tp++;
      else if (said) fp++;
      else if (s.constraint) fn++;
    }
    expect(tp / (tp + fp)).toBeGreaterThanOrEqual(0.7);
    expect(tp / (tp + fn)).toBeGreaterThanOrEqual(0.75);
  });

  it('never offers chatter as a rule, and still sees a rule inside a longer sentence', () => {
    for (const chatter of [
      'Keep going.',
      'Keep going, nearly there.',
      'keep it up!',
      'Keep at it',
      'ok, keep working on it.',
    ])
      expect(isConstraint(chatter), chatter).toBe(false);
    for (const rule of [
      'Keep the public API stable.',
      "no, don't mock completion.",
      "what is it using? should be dimmer, don't modify the theme",
      'invalid themes must NEVER explode',
    ])
      expect(isConstraint(rule), rule).toBe(true);
  });
});
