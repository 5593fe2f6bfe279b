#!/usr/bin/env node
// Trains the transcript sentence model on the tune, fresh and real-tune parts of
// test/fixtures/sentence-corpus.jsonl (never the held, unseen or real-held part: those are
// only measured) and writes src/transcripts/sentence-weights.ts: the weights of a multinomial
// logistic regression and the floors chosen by cross-validation on what it is trained on
// (src/transcripts/sentence-train.ts, TRAINED_ON). Deterministic: the same corpus gives the
// same bytes, which test/sentence-model.test.ts checks.
//
//   node scripts/train-sentences.js
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from '../bench/internals.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [{ DEFAULTS, trainModel, renderModel, trainingExamples }] = await internals('transcripts/sentence-train.ts');
const rows = readFileSync(path.join(root, 'test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));
const examples = trainingExamples(rows);
const model = trainModel(examples, DEFAULTS);
const out = path.join(root, 'src/transcripts/sentence-weights.ts');
writeFileSync(out, renderModel(model, DEFAULTS, examples.length));
console.log(
  `wrote ${path.relative(root, out)}: ${model.weights.size} features, floors ${JSON.stringify(model.floors)}`,
);
