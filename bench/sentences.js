// @ts-check
// Precision, recall and F1 per class of the transcript sentence classifier on the labelled
// corpus (test/fixtures/sentence-corpus.jsonl), and the confusion between classes.
//
//   node bench/sentences.js            the classifier and the rules alone, on the tune part
//                                      and on the held part (the held part is looked at once,
//                                      at the end of a change: it stays out of tuning), and on
//                                      the fresh part (written after the model, never trained on)
//                                      and the unseen part (gathered after that, never trained or
//                                      tuned on), when the corpus has them
//   node bench/sentences.js --cv       the tune part only: the rules, the classifier on the
//                                      sentences it was trained on, and the whole method
//                                      (training and floors) cross-validated by folds of the
//                                      tune part; --grid adds other training options beside it
//   node bench/sentences.js --misses   the tune part's errors (never the held part's)
//   node bench/sentences.js --cv --speed [rounds]   adds the time a sentence takes (default 20 rounds)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

if (process.argv.includes('--help')) {
  console.log(
    'node bench/sentences.js [--cv [--grid]] [--misses] [--speed [rounds, 20 suggested]]: precision/recall per class of the sentence classifier; --cv stays on the tune part (cross-validated), without it the held, fresh and unseen parts are printed too',
  );
  process.exit(0);
}
const [{ classify, CLASSES }, { ruleClass }, { features }, train] = await internals(
  'transcripts/sentence-class.ts',
  'transcripts/rule-class.ts',
  'transcripts/sentence-features.ts',
  'transcripts/sentence-train.ts',
);

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = readFileSync(path.join(here, '../test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

// What the extractor knows at the sentence, from the row's context.
const context = (row) => ({
  speaker: row.speaker,
  earlier: row.context?.earlier === undefined ? [] : [row.context.earlier],
  afterFailure: row.context?.failed !== undefined,
  ...(row.context?.question === undefined ? {} : { question: row.context.question }),
});
const model = (row) => classify(row.text, context(row));
const rules = (row) => ruleClass(row.text, context(row));
const pct = (n, d) => (d === 0 ? '  n/a' : `${((100 * n) / d).toFixed(0).padStart(4)}%`);

/** @param {any[]} part @param {string[]} guesses */
function table(title, part, guesses) {
  const confusion = new Map();
  part.forEach((row, i) => {
    const key = `${row.class}>${guesses[i]}`;
    confusion.set(key, (confusion.get(key) ?? 0) + 1);
  });
  const n = (label, guess) => confusion.get(`${label}>${guess}`) ?? 0;
  console.log(`\n${title}: ${part.length} sentences`);
  console.log('class        n   precision        recall           F1');
  for (const c of CLASSES) {
    const tp = n(c, c);
    const labelled = CLASSES.reduce((s, g) => s + n(c, g), 0);
    const guessed = CLASSES.reduce((s, l) => s + n(l, c), 0);
    const p = guessed ? tp / guessed : 0;
    const r = labelled ? tp / labelled : 0;
    const f1 = p + r ? (2 * p * r) / (p + r) : 0;
    console.log(
      `${c.padEnd(11)}${String(labelled).padStart(4)}  ${pct(tp, guessed)} ${`(${tp}/${guessed})`.padEnd(9)}  ${pct(tp, labelled)} ${`(${tp}/${labelled})`.padEnd(9)}  ${f1.toFixed(2)}`,
    );
  }
  console.log(
    `confusion (rows: label, columns: guess)\n${' '.repeat(12)}${CLASSES.map((c) => c.slice(0, 5).padStart(6)).join('')}`,
  );
  for (const l of CLASSES) console.log(`${l.padEnd(12)}${CLASSES.map((g) => String(n(l, g)).padStart(6)).join('')}`);
}

/** One line per option set: precision/recall of the four classes the goal names. */
function brief(title, part, guesses) {
  const cells = ['decision', 'reversal', 'abandoned', 'question'].map((c) => {
    let tp = 0;
    let guessed = 0;
    let labelled = 0;
    part.forEach((row, i) => {
      if (guesses[i] === c) guessed++;
      if (row.class === c) labelled++;
      if (guesses[i] === c && row.class === c) tp++;
    });
    return `${(guessed ? tp / guessed : 0).toFixed(2)}/${(labelled ? tp / labelled : 0).toFixed(2)}`;
  });
  console.log(`${title.padEnd(44)}${cells.map((c) => c.padStart(12)).join('')}`);
}

const tune = rows.filter((r) => r.split === 'tune');
if (process.argv.includes('--cv')) {
  const examples = tune.map((row) => ({ feats: features(row.text, context(row)), label: row.class }));
  table('tune, the rules alone', tune, tune.map(rules));
  table('tune, the classifier (trained on these sentences)', tune, tune.map(model));
  const cv = train.crossValidate(examples, train.DEFAULTS);
  table(`tune, cross-validated (${train.DEFAULTS.folds} folds; weights and floors from the other folds)`, tune, cv);
  if (process.argv.includes('--grid')) {
    console.log(
      `\ncross-validated three times, precision/recall${' '.repeat(1)}decision    reversal   abandoned    question`,
    );
    const D = train.DEFAULTS;
    for (const o of [
      D,
      { ...D, l2: 3 },
      { ...D, l2: 30 },
      { ...D, dropRules: 0 },
      { ...D, dropRules: 100 },
      { ...D, dropRules: 50 },
      { ...D, epochs: 6 },
      { ...D, epochs: 24 },
      { ...D, minCount: 2 },
      { ...D, precision: 0.93 },
    ]) {
      const changed = Object.entries(o)
        .filter(([k, v]) => D[k] !== v)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      // Three splits into folds, pooled: one split alone moves a figure by several points.
      const pooled = [1, 2, 3].flatMap((k) => train.crossValidate(examples, { ...o, seed: o.seed + 100 * k }));
      brief(changed || 'defaults', [...tune, ...tune, ...tune], pooled);
    }
  }
} else if (!['--misses', '--speed'].some((flag) => process.argv.includes(flag))) {
  table('tune, the classifier', tune, tune.map(model));
  table('tune, the rules alone', tune, tune.map(rules));
  const held = rows.filter((r) => r.split === 'held');
  table('held, the classifier', held, held.map(model));
  table('held, the rules alone', held, held.map(rules));
  // The first batch was written before any rule changed; the second after, so its held part may
  // lean towards wording the rules know.
  const first = held.filter((r) => r.batch === undefined);
  if (first.length < held.length) table('held, first batch only, the classifier', first, first.map(model));
  // Written after the model was trained, and never trained or tuned on.
  const fresh = rows.filter((r) => r.split === 'fresh');
  table('fresh, the classifier', fresh, fresh.map(model));
  table('fresh, the rules alone', fresh, fresh.map(rules));
  // Gathered after the fresh part (real sessions and new wording), and never trained or tuned on:
  // the fair measure once the fresh part has been trained on.
  const unseen = rows.filter((r) => r.split === 'unseen');
  if (unseen.length > 0) {
    table('unseen, the classifier', unseen, unseen.map(model));
    table('unseen, the rules alone', unseen, unseen.map(rules));
    const real = unseen.filter((r) => r.source !== 'written');
    table('unseen, real sentences only, the classifier', real, real.map(model));
  }
}
if (process.argv.includes('--speed')) {
  // What a sentence costs the extractor: the rules alone, and the model over them (which runs them too).
  const rounds = Number(process.argv[process.argv.indexOf('--speed') + 1]) || 20;
  /** @type {Array<[string, (row: any) => string]>} */
  const timed = [
    ['the rules alone', rules],
    ['the classifier', model],
  ];
  for (const [name, f] of timed) {
    for (const row of tune) f(row); // warm-up
    const t = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) for (const row of tune) f(row);
    const us = Number(process.hrtime.bigint() - t) / 1000 / (rounds * tune.length);
    console.log(
      `${name.padEnd(16)} ${us.toFixed(1)} µs a sentence (${rounds} rounds of the ${tune.length} tune sentences)`,
    );
  }
}
if (process.argv.includes('--misses')) {
  console.log('\ntune errors (label -> classifier):');
  for (const row of tune) {
    const guess = model(row);
    if (guess !== row.class)
      console.log(
        `  ${row.class} -> ${guess} [${row.speaker}${row.context ? ` ${Object.keys(row.context).join(',')}` : ''}] ${row.text.slice(0, 110)}`,
      );
  }
}
