// @ts-check
// Precision, recall and F1 per class of the transcript sentence rules on the labelled corpus
// (test/fixtures/sentence-corpus.jsonl), for its tune and held parts apart, and the
// confusion between classes; the held part again without the second batch. --misses lists the tune part's errors (never the held part's:
// the held part stays out of tuning).
// Run: node bench/sentences.js [--misses]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

if (process.argv.includes('--help')) {
  console.log(
    'node bench/sentences.js [--misses]: precision/recall per class on the tune and held parts of the corpus',
  );
  process.exit(0);
}
const [{ classify, CLASSES }] = await internals('transcripts/sentence-class.ts');

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = readFileSync(path.join(here, '../test/fixtures/sentence-corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

// What the extractor knows at the sentence, from the row's context.
const said = (row) =>
  classify(row.text, {
    speaker: row.speaker,
    earlier: row.context?.earlier === undefined ? [] : [row.context.earlier],
    afterFailure: row.context?.failed !== undefined,
    question: row.context?.question,
  });
const pct = (n, d) => (d === 0 ? '  n/a' : `${((100 * n) / d).toFixed(0).padStart(4)}%`);

function report(split, title = split, only = (_row) => true) {
  const part = rows.filter((r) => r.split === split && only(r));
  const confusion = new Map();
  for (const row of part) {
    const key = `${row.class}>${said(row)}`;
    confusion.set(key, (confusion.get(key) ?? 0) + 1);
  }
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
    `confusion (rows: label, columns: rule)\n${'            '}${CLASSES.map((c) => c.slice(0, 5).padStart(6)).join('')}`,
  );
  for (const l of CLASSES) console.log(`${l.padEnd(12)}${CLASSES.map((g) => String(n(l, g)).padStart(6)).join('')}`);
}

report('tune');
report('held');
// The first batch was written before any rule changed; the second after, so its held part may
// lean towards wording the rules know.
if (rows.some((r) => r.batch === 2)) report('held', 'held, first batch only', (r) => r.batch === undefined);
if (process.argv.includes('--misses')) {
  console.log('\ntune errors (label -> rule):');
  for (const row of rows.filter((r) => r.split === 'tune')) {
    const guess = said(row);
    if (guess !== row.class)
      console.log(
        `  ${row.class} -> ${guess} [${row.speaker}${row.context ? ` ${Object.keys(row.context).join(',')}` : ''}] ${row.text.slice(0, 110)}`,
      );
  }
}
