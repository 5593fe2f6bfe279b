#!/usr/bin/env node
// Trains the transcript sentence model on the tune part of test/fixtures/sentence-corpus.jsonl
// (never the held part) and writes src/transcripts/sentence-weights.ts: the weights of a
// multinomial logistic regression and the floors chosen by cross-validation on the tune part
// (src/transcripts/sentence-train.ts). Deterministic: the same corpus gives the same bytes,
// which test/sentence-model.test.ts checks.
//
//   node scripts/train-sentences.js
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from '../bench/internals.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [{ features }, { DEFAULTS, trainModel, renderModel }] = await internals(
  'transcripts/sentence-features.ts',
  'transcripts/sentence-train.ts',
);
const examples = readFileSync(path.join(root, 'test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
  .filter((row) => row.split === 'tune')
  .map((row) => ({
    feats: features(row.text, {
      speaker: row.speaker,
      earlier: row.context?.earlier === undefined ? [] : [row.context.earlier],
      afterFailure: row.context?.failed !== undefined,
      ...(row.context?.question === undefined ? {} : { question: row.context.question }),
    }),
    label: row.class,
  }));
const model = trainModel(examples, DEFAULTS);
const out = path.join(root, 'src/transcripts/sentence-weights.ts');
writeFileSync(out, renderModel(model, DEFAULTS, examples.length));
console.log(
  `wrote ${path.relative(root, out)}: ${model.weights.size} features, floors ${JSON.stringify(model.floors)}`,
);
