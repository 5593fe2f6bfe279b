// The sentence model's weights: a multinomial logistic regression fitted to training examples,
// and the options of the whole training (sentence-train.ts chooses the floors with them). Pure
// and deterministic: full-batch steps over the sentences in a fixed order, weights rounded to
// integers, so every machine writes the same file. Never loaded by the CLI.
import type { Example } from './sentence-examples.js';
import { RULE_PREFIX } from './sentence-features.js';
import { CLASSES } from './rule-class.js';

export interface TrainOptions {
  /** Tens of full-batch gradient steps. */
  epochs: number;
  /** Seeds the split into folds. */
  seed: number;
  /** Out of 100: the weight of each sentence's copy without the rules' verdicts. */
  dropRules: number;
  /** Features seen in fewer training sentences are left out. */
  minCount: number;
  /** Precision each class's floor is chosen for, on the folds. */
  precision: number;
  folds: number;
  /** The L2 penalty per sentence, in thousandths. */
  l2: number;
  /** Out of 100: the weight of a sentence labelled `none` in training against the others' 100. */
  noneWeight: number;
  /**
   * How many times a wrong guess on a written sentence labelled `none` (a near miss written on
   * purpose) counts when the floors are chosen. Left at 1: counting every `none` more (1.5, 2, 4)
   * cut the decisions of the long chain's natural wording with the false ones; realNoneOdds counts
   * the real sessions' `none` sentences instead, which are what the floors meet in use.
   */
  noneOdds: number;
  /** How many other rows' decisions stand behind each training row (trainingExamples). */
  standing: number;
  /**
   * noneOdds for a `none` sentence of a real session's transcript: the floors are chosen for
   * precision nearer the share real sessions have of `none` than the corpus's. After the
   * relabelling by the rubric (test/fixtures/sentence-corpus.md) the real rows trained on are 93%
   * none (652 of 702), the rows trained on 52% (927 of 1783, with the sixth batch). Cross-validated
   * (bench/sentences.js --cv --grid), 1, 4, 6 and 17 leave the real decisions' precision where it
   * is (0.17 to 0.19): their false decisions are guesses the rules make too, for which the floor
   * is waived; higher odds cost the abandoned approaches' recall (0.82 at 1, 0.74 at 4, 0.62 at
   * 17) and at 9 and above their floor rises over agents' prose summaries ("X was tried too and
   * abandoned because ..."). 4 keeps the reversals' and abandoned approaches' precision at 0.94
   * and 0.95 without that loss.
   */
  realNoneOdds: number;
}

export const DEFAULTS: TrainOptions = {
  epochs: 24,
  seed: 23,
  dropRules: 25,
  minCount: 3,
  precision: 0.9,
  folds: 5,
  l2: 5,
  noneWeight: 50,
  noneOdds: 1,
  standing: 3,
  realNoneOdds: 4,
};

/**
 * Multinomial logistic regression by full-batch gradient descent with AdaGrad steps and an L2
 * penalty; each sentence counts once with the rules' verdicts and once without, weighted by
 * dropRules, so no random draw is needed. Weights scaled by 100 and rounded to integers.
 */
export function train(examples: readonly Example[], o: TrainOptions = DEFAULTS): Map<string, Int32Array> {
  const K = CLASSES.length;
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of e.feats) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts].filter(([, n]) => n >= o.minCount).map(([f]) => f);
  names.sort();
  const index = new Map(names.map((f, i) => [f, i]));
  const isRule = names.map((f) => f.startsWith(RULE_PREFIX));
  const data: Array<{ feats: number[]; label: number; weight: number }> = [];
  const drop = o.dropRules / 100;
  for (const e of examples) {
    const feats = e.feats.filter((f) => index.has(f)).map((f) => index.get(f)!);
    const label = CLASSES.indexOf(e.label);
    // Weighted down in training (the floors, not the weights, keep near misses out): with them at
    // full weight a choice between two classes (decision or reversal) leads by too little.
    const cw = e.label === 'none' ? o.noneWeight / 100 : 1;
    if (drop < 1) data.push({ feats, label, weight: cw * (1 - drop) });
    if (drop > 0) data.push({ feats: feats.filter((f) => !isRule[f]), label, weight: cw * drop });
  }
  const l2 = (o.l2 * examples.length) / 1000;
  const w = new Float64Array(names.length * K);
  const g2 = new Float64Array(names.length * K).fill(1e-8);
  const grad = new Float64Array(names.length * K);
  const p = new Float64Array(K);
  for (let epoch = 0; epoch < o.epochs * 10; epoch++) {
    grad.fill(0);
    for (const d of data) {
      let max = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) {
        let s = 0;
        for (const f of d.feats) s += w[f * K + k]!;
        p[k] = s;
        if (s > max) max = s;
      }
      let z = 0;
      for (let k = 0; k < K; k++) z += p[k] = Math.exp(p[k]! - max);
      for (let k = 0; k < K; k++) {
        const err = d.weight * (p[k]! / z - (k === d.label ? 1 : 0));
        for (const f of d.feats) grad[f * K + k]! += err;
      }
    }
    for (let i = 0; i < w.length; i++) {
      const gi = grad[i]! + l2 * w[i]!;
      g2[i]! += gi * gi;
      w[i]! -= (0.5 * gi) / Math.sqrt(g2[i]!);
    }
  }
  const out = new Map<string, Int32Array>();
  names.forEach((f, i) => {
    const row = new Int32Array(K);
    let any = false;
    for (let k = 0; k < K; k++) {
      row[k] = Math.round(100 * w[i * K + k]!);
      if (row[k] !== 0) any = true;
    }
    if (any) out.set(f, row);
  });
  return out;
}
