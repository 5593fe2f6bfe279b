// Training the sentence model (sentence-model.ts) as a whole: weights from every example
// (sentence-fit.ts), floors chosen by k-fold cross-validation, the whole method cross-validated,
// and the generated module rendered: used by scripts/train-sentences.js, which writes the
// result, by bench/sentences.js --cv, and by the test that the generated weights are what the
// script makes of the corpus. Not part of the program (nothing the CLI loads imports it). Pure
// and deterministic: folds from a seeded shuffle, so every machine writes the same file.
import { type Example, random, TRAINED_ON } from './sentence-examples.js';
import { DEFAULTS, type TrainOptions, train } from './sentence-fit.js';
import { best, decide, formatWeights, type Model, rulesAgree, scores } from './sentence-model.js';
import { CLASSES, type SentenceClass } from './rule-class.js';

// What scripts/train-sentences.js, bench/sentences.js and the tests import, from this one module.
export {
  type CorpusRow,
  type Example,
  isTrainedOn,
  random,
  rowContext,
  TRAINED_ON,
  trainingExamples,
} from './sentence-examples.js';
export { DEFAULTS, type TrainOptions, train } from './sentence-fit.js';

function shuffle<T>(list: T[], next: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** Folds by class, so each holds its share of every class: the i-th of a class goes to fold i mod k after a seeded shuffle. */
export function folds(examples: readonly Example[], k: number, seed: number): number[] {
  const fold = new Array<number>(examples.length).fill(0);
  const next = random(seed);
  for (const c of CLASSES) {
    const of = shuffle(
      examples.map((e, i) => (e.label === c ? i : -1)).filter((i) => i >= 0),
      next,
    );
    of.forEach((i, j) => {
      fold[i] = j % k;
    });
  }
  return fold;
}

export interface Guess {
  label: SentenceClass;
  guess: SentenceClass;
  lead: number;
  /** The rules say the same as the guess: the floor does not apply. */
  agreed: boolean;
  real: boolean;
}

/** Each example's guess by a model trained on the other folds. */
export function outOfFold(examples: readonly Example[], o: TrainOptions): Guess[] {
  const fold = folds(examples, o.folds, o.seed);
  const out = new Array<Guess>(examples.length);
  for (let f = 0; f < o.folds; f++) {
    const weights = train(
      examples.filter((_, i) => fold[i] !== f),
      o,
    );
    examples.forEach((e, i) => {
      if (fold[i] !== f) return;
      const { index, lead } = best(scores(weights, e.feats));
      const guess = CLASSES[index]!;
      out[i] = { label: e.label, guess, lead, agreed: rulesAgree(e.feats, guess), real: e.real === true };
    });
  }
  return out;
}

/**
 * Per class, the lowest floor whose guesses reach the precision asked for (the highest recall that
 * does), a wrong guess on a `none` sentence counting noneOdds times (realNoneOdds for a real session's).
 */
export function chooseFloors(
  guesses: readonly Guess[],
  precision: number,
  noneOdds = 1,
  realNoneOdds = noneOdds,
): Record<SentenceClass, number> {
  const cost = (g: Guess) => (g.label !== 'none' ? 1 : g.real ? realNoneOdds : noneOdds);
  const floors = {} as Record<SentenceClass, number>;
  for (const c of CLASSES) {
    // The guesses the rules agree with are given whatever the floor: they count from the start.
    // Where they alone fall short of the precision asked for (their false choices in real
    // sessions count realNoneOdds times), the model's guesses are given while they keep the
    // precision the rules have alone: no floor would reach the precision asked for.
    let right = 0;
    let wrong = 0;
    for (const g of guesses)
      if (g.guess === c && g.agreed) {
        if (g.label === c) right++;
        else wrong += cost(g);
      }
    const wanted = right + wrong === 0 ? precision : Math.min(precision, right / (right + wrong));
    const mine = guesses.filter((g) => g.guess === c && !g.agreed).sort((a, b) => b.lead - a.lead);
    let floor = Number.MAX_SAFE_INTEGER;
    mine.forEach((g, i) => {
      if (g.label === c) right++;
      else wrong += cost(g);
      // A floor sits between two leads: only where the next guess has a lower lead.
      const next = mine[i + 1];
      if ((next === undefined || next.lead < g.lead) && right / (right + wrong) >= wanted) floor = g.lead;
    });
    floors[c] = c === 'none' ? 0 : floor;
  }
  return floors;
}

/** The model the script writes: weights from every example, floors from the folds. */
export function trainModel(examples: readonly Example[], o: TrainOptions = DEFAULTS): Model {
  return {
    weights: train(examples, o),
    floors: chooseFloors(outOfFold(examples, o), o.precision, o.noneOdds, o.realNoneOdds),
  };
}

/** Cross-validated guesses of the whole method, floors included: the floors of each fold are chosen on its training part alone. */
export function crossValidate(examples: readonly Example[], o: TrainOptions = DEFAULTS): SentenceClass[] {
  const fold = folds(examples, o.folds, o.seed + 1);
  const out = new Array<SentenceClass>(examples.length);
  for (let f = 0; f < o.folds; f++) {
    const model = trainModel(
      examples.filter((_, i) => fold[i] !== f),
      o,
    );
    examples.forEach((e, i) => {
      if (fold[i] !== f) return;
      out[i] = decide(model, e.feats);
    });
  }
  return out;
}

/** The generated module: the floors and the weights, as scripts/train-sentences.js writes it. */
export function renderModel(model: Model, o: TrainOptions, examples: number): string {
  const text = formatWeights(model.weights);
  if (/[`\\]|\$\{/.test(text)) throw new Error('a feature holds a character a template literal would change');
  const floors = CLASSES.map((c) => `  ${c}: ${model.floors[c]},`).join('\n');
  return `// Generated by scripts/train-sentences.js from the ${examples} sentences of the ${TRAINED_ON.join(', ')}
// parts of test/fixtures/sentence-corpus.jsonl: do not edit; run the script after changing the corpus,
// the features or the training. Options: ${JSON.stringify(o)}.
// The floors are per class, the least lead of the best class over the runner-up; the weights
// are one feature a line, an integer per class in CLASSES order (a zero left empty).
import type { SentenceClass } from './rule-class.js';

export const FLOORS: Record<SentenceClass, number> = {
${floors}
};

export const WEIGHTS = \`${text}
\`;
`;
}
