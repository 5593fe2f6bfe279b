// One class per sentence (decision, reversal, abandoned, question, answer, constraint, none),
// by the learned model (sentence-model.ts, trained on the tune part of
// test/fixtures/sentence-corpus.jsonl by scripts/train-sentences.js) reading the sentence's
// words, what the extractor knows at that point and the rules' verdicts (rule-class.ts).
// Rules fitted to a few phrasings meet a new one sooner or later; the words around the
// phrasing carry over better. Pure; measured by bench/sentences.js.
import { features } from './sentence-features.js';
import { decide, type Model, parseWeights } from './sentence-model.js';
import type { SentenceClass, SentenceContext } from './rule-class.js';
import { FLOORS, WEIGHTS } from './sentence-weights.js';

export { CLASSES, ruleClass, type SentenceClass, type SentenceContext } from './rule-class.js';

// Parsed at the first sentence: this module loads only with the transcript readers.
let model: Model | undefined;

export function classify(text: string, ctx: SentenceContext): SentenceClass {
  model ??= { weights: parseWeights(WEIGHTS), floors: FLOORS };
  return decide(model, features(text, ctx));
}
