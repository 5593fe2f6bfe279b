// @ts-check
// How far two labellers agree on the corpus's real sentences: the labels of
// test/fixtures/sentence-corpus.jsonl against a second labeller's, given blind (the text, its
// speaker, context and place in the transcript, never the first label or a classifier's guess) in
// test/fixtures/sentence-corpus-second.jsonl. Prints Cohen's kappa, the agreement per class and
// the pairs the two labelled differently. The second labeller saw a stratified sample (every real
// row the first labeller put in a class other than none, and a seeded random share of the none
// rows), so the kappa here weighs the rare classes more than the whole corpus would.
// Prints figures; asserts nothing.
//
//   node bench/agreement.js [--pairs]   --pairs lists every row the two labelled differently
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.argv.includes('--help')) {
  console.log(
    "node bench/agreement.js [--pairs]: Cohen's kappa and per-class agreement between the corpus's labels and a second labeller's (test/fixtures/sentence-corpus-second.jsonl); --pairs lists the rows they labelled differently",
  );
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** @param {string} name */
const jsonl = (name) =>
  readFileSync(path.join(here, '../test/fixtures', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

const first = new Map(jsonl('sentence-corpus.jsonl').map((row) => [row.text, row.class]));
const pairs = jsonl('sentence-corpus-second.jsonl')
  .filter((row) => first.has(row.text))
  .map((row) => ({ text: row.text, a: first.get(row.text), b: row.class, sure: row.sure !== false }));

/** Cohen's kappa of labelled pairs: agreement beyond what the two labellers' marginals give by chance. */
function kappa(/** @type {{a: string, b: string}[]} */ part) {
  const n = part.length;
  const count = (/** @type {string} */ key, /** @type {string} */ c) => part.filter((p) => p[key] === c).length;
  const classes = [...new Set(part.flatMap((p) => [p.a, p.b]))];
  const observed = part.filter((p) => p.a === p.b).length / n;
  const chance = classes.reduce((s, c) => s + (count('a', c) / n) * (count('b', c) / n), 0);
  return { n, observed, kappa: chance === 1 ? 1 : (observed - chance) / (1 - chance) };
}

const all = kappa(pairs);
const sure = kappa(pairs.filter((p) => p.sure));
console.log(`rows labelled by both: ${all.n} (the second labeller marked ${all.n - sure.n} unsure)`);
console.log(`agreement ${all.observed.toFixed(3)}, Cohen's kappa ${all.kappa.toFixed(3)}`);
console.log(
  `rows the second labeller was sure of: agreement ${sure.observed.toFixed(3)}, kappa ${sure.kappa.toFixed(3)}`,
);

console.log('\nclass        first  second  both  agreement (2 x both / (first + second))');
const classes = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].sort();
for (const c of classes) {
  const a = pairs.filter((p) => p.a === c).length;
  const b = pairs.filter((p) => p.b === c).length;
  const both = pairs.filter((p) => p.a === c && p.b === c).length;
  console.log(
    `${c.padEnd(12)}${String(a).padStart(6)}${String(b).padStart(8)}${String(both).padStart(6)}  ${((2 * both) / (a + b)).toFixed(2)}`,
  );
}

const differ = new Map();
for (const p of pairs.filter((p) => p.a !== p.b))
  differ.set(`${p.a} > ${p.b}`, (differ.get(`${p.a} > ${p.b}`) ?? 0) + 1);
console.log('\nlabelled differently (first > second): count');
for (const [key, n] of [...differ].sort((x, y) => y[1] - x[1])) console.log(`  ${key}: ${n}`);
if (process.argv.includes('--pairs')) {
  for (const p of pairs.filter((p) => p.a !== p.b))
    console.log(`\n${p.a} > ${p.b}${p.sure ? '' : ' (unsure)'}: ${p.text}`);
}
