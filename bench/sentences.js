// @ts-check
// Precision, recall and F1 per class of the transcript sentence classifier on the labelled
// corpus (test/fixtures/sentence-corpus.jsonl), and the confusion between classes.
//
//   node bench/sentences.js            the classifier and the rules alone on the parts it is
//                                      trained on (tune, fresh, real-tune), on the held part
//                                      (looked at once, at the end of a change: it stays out of
//                                      tuning), on the unseen part (written after the model, in
//                                      wording it never met, never trained on) and on the
//                                      real-held part (the fifth batch's held-back real sentences;
//                                      the seventh batch's apart)
//   node bench/sentences.js --cv       the parts trained on only: the whole method (training and
//                                      floors) cross-validated by folds of them, per part, on the
//                                      sentences of real sessions among them, and the rules alone;
//                                      --grid adds other training options beside it
//   node bench/sentences.js --misses   the cross-validated errors of the parts trained on (never
//                                      the held or unseen part's)
//   --with-seventh                     with --cv or --misses: train on the seventh batch's
//                                      real-tune share too (it is measured only; why in
//                                      src/transcripts/sentence-examples.ts, isTrainedOn)
//   node bench/sentences.js --cv --speed [rounds]   adds the time a sentence takes (default 20 rounds)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

if (process.argv.includes('--help')) {
  console.log(
    "node bench/sentences.js [--cv [--grid]] [--misses] [--with-seventh] [--speed [rounds, 20 suggested]]: precision/recall per class of the sentence classifier; --cv and --misses stay on the parts trained on (tune + fresh + real-tune, cross-validated; --with-seventh trains on the seventh batch's real-tune share too); without them the held, unseen and real-held parts, and the seventh batch, are printed too",
  );
  process.exit(0);
}
const [{ classify, CLASSES }, { ruleClass }, train] = await internals(
  'transcripts/sentence-class.ts',
  'transcripts/rule-class.ts',
  'transcripts/sentence-train.ts',
);

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = readFileSync(path.join(here, '../test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

const context = train.rowContext;
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

// --with-seventh trains on the seventh batch's real-tune share too, as the parts it is in would
// have it (it is measured only: sentence-examples.ts, isTrainedOn, says why).
const withSeventh = process.argv.includes('--with-seventh');
/** @param {any} r */
const inTraining = (r) => (withSeventh ? train.TRAINED_ON.includes(r.split) : train.isTrainedOn(r));
const trained = rows.filter(inTraining);
const examples = train.trainingExamples(rows, train.DEFAULTS.standing, inTraining);
/** Each trained row's guess by the whole method (weights and floors) cross-validated on the other folds. */
const crossValidated = (o = train.DEFAULTS) => train.crossValidate(examples, o);
/** The guesses of the rows of one part, out of guesses for every trained row. @returns {[any[], string[]]} */
const partOf = (split, guesses) => [
  trained.filter((r) => r.split === split && r.batch !== 7),
  guesses.filter((_, i) => trained[i].split === split && trained[i].batch !== 7),
];
if (process.argv.includes('--cv')) {
  const cv = crossValidated();
  const title = `cross-validated (${train.DEFAULTS.folds} folds of ${train.TRAINED_ON.join(' + ')}; weights and floors from the other folds)`;
  table(`${train.TRAINED_ON.join(' + ')}, ${title}`, trained, cv);
  for (const split of train.TRAINED_ON) table(`${split}, ${title}`, ...partOf(split, cv));
  // With --with-seventh, the seventh batch's rows apart, so that real-tune's figures stay
  // comparable with earlier stops' (measured on the rows it held before).
  const seventh = trained.map((r, i) => (r.batch === 7 ? i : -1)).filter((i) => i >= 0);
  if (seventh.length > 0)
    table(
      `real-tune, seventh batch, ${title}`,
      seventh.map((i) => trained[i]),
      seventh.map((i) => cv[i]),
    );
  // The sentences of real sessions among them: mostly none, as in use, where the floors must hold.
  const real = trained.map((r, i) => (r.source !== 'written' ? i : -1)).filter((i) => i >= 0);
  table(
    `${train.TRAINED_ON.join(' + ')}, real sentences only, ${title}`,
    real.map((i) => trained[i]),
    real.map((i) => cv[i]),
  );
  table(`${train.TRAINED_ON.join(' + ')}, the rules alone`, trained, trained.map(rules));
  if (process.argv.includes('--grid')) {
    console.log(
      `\ncross-validated three times, precision/recall${' '.repeat(1)}decision    reversal   abandoned    question`,
    );
    const D = train.DEFAULTS;
    for (const o of [
      D,
      { ...D, l2: D.l2 / 2 },
      { ...D, l2: D.l2 * 2 },
      { ...D, l2: D.l2 * 4 },
      { ...D, dropRules: 0 },
      { ...D, dropRules: 50 },
      { ...D, epochs: D.epochs / 2 },
      { ...D, minCount: 2 },
      { ...D, minCount: 5 },
      { ...D, noneWeight: 100 },
      { ...D, noneOdds: 1.5 },
      { ...D, noneOdds: 2 },
      { ...D, noneOdds: 4 },
      { ...D, realNoneOdds: 1 },
      { ...D, realNoneOdds: 6 },
      { ...D, realNoneOdds: 17 },
      { ...D, noneWeight: 25 },
      { ...D, standing: 0 },
      { ...D, precision: 0.93 },
    ]) {
      const changed = Object.entries(o)
        .filter(([k, v]) => D[k] !== v)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const mine = o.standing === D.standing ? examples : train.trainingExamples(rows, o.standing, inTraining);
      // Three splits into folds, pooled: one split alone moves a figure by several points.
      const pooled = [1, 2, 3].flatMap((k) => train.crossValidate(mine, { ...o, seed: o.seed + 100 * k }));
      const thrice = [...trained, ...trained, ...trained];
      brief(changed || 'defaults', thrice, pooled);
      const real = thrice.map((r, i) => (r.source !== 'written' ? i : -1)).filter((i) => i >= 0);
      brief(
        '  the real sentences only',
        real.map((i) => thrice[i]),
        real.map((i) => pooled[i]),
      );
    }
  }
} else if (!['--misses', '--speed'].some((flag) => process.argv.includes(flag))) {
  for (const split of train.TRAINED_ON) {
    const part = rows.filter((r) => r.split === split && train.isTrainedOn(r));
    table(`${split}, the classifier (trained on these sentences)`, part, part.map(model));
  }
  table(`${train.TRAINED_ON.join(' + ')}, the rules alone`, trained, trained.map(rules));
  // Never trained on: the held part (hashed out of the first two batches) is looked at once, at
  // the end of a change; the unseen part was written after this model, in wording it never met;
  // real-held is the fifth batch's share of real sentences hashed out of training.
  // The sixth batch's held rows are printed apart, so the held part's figures stay comparable with
  // earlier stops' (measured on the rows it held before); likewise the seventh batch's real-held rows.
  /** @type {Array<[string, (row: any) => boolean]>} */
  const measured = [
    ['held', (r) => r.split === 'held' && r.batch !== 6],
    ['held, sixth batch', (r) => r.split === 'held' && r.batch === 6],
    ['unseen', (r) => r.split === 'unseen'],
    ['real-held', (r) => r.split === 'real-held' && r.batch !== 7],
    ['real-held, seventh batch', (r) => r.split === 'real-held' && r.batch === 7],
    ['real-tune, seventh batch (not trained on)', (r) => r.split === 'real-tune' && r.batch === 7],
  ];
  for (const [split, inPart] of measured) {
    const part = rows.filter(inPart);
    if (part.length === 0) continue;
    table(`${split}, the classifier`, part, part.map(model));
    table(`${split}, the rules alone`, part, part.map(rules));
    const real = part.filter((r) => r.source !== 'written');
    if (split === 'unseen') table('unseen, real sentences only, the classifier', real, real.map(model));
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
    for (const row of trained) f(row); // warm-up
    const t = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) for (const row of trained) f(row);
    const us = Number(process.hrtime.bigint() - t) / 1000 / (rounds * trained.length);
    console.log(
      `${name.padEnd(16)} ${us.toFixed(1)} µs a sentence (${rounds} rounds of the ${trained.length} sentences trained on)`,
    );
  }
}
if (process.argv.includes('--misses')) {
  // Out-of-fold errors: what the method gets wrong on sentences it was not trained on, among the
  // parts it trains on (never the held or unseen part's).
  const cv = crossValidated();
  console.log('\ncross-validated errors of the parts trained on (label -> guess):');
  trained.forEach((row, i) => {
    if (cv[i] !== row.class)
      console.log(
        `  ${row.class} -> ${cv[i]} [${row.split} ${row.speaker}${row.context ? ` ${Object.keys(row.context).join(',')}` : ''}] ${row.text.slice(0, 110)}`,
      );
  });
}
