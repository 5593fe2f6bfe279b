// @ts-check
// Precision and recall of constraint detection on the labelled sentences of the real
// transcript fixtures (test/fixtures/constraint-sentences.json), before (the first rule:
// a rule word at the start of the sentence) and now (src/transcripts/extract.ts).
// Run after `npm run build`: node bench/constraints.js
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

const [{ isConstraint }] = await internals('transcripts/extract.ts');

const here = path.dirname(fileURLToPath(import.meta.url));
const { sentences } = JSON.parse(readFileSync(path.join(here, '../test/fixtures/constraint-sentences.json'), 'utf8'));

// The rule before: a rule word (including a bare "keep") opening the sentence.
const BEFORE =
  /^(?:please\s+)?(?:never|always|don['’]t|do not|must(?: not)?|only|prefer|avoid|make sure|keep|no more)\b|^(?:you|we)\s+(?:must|should (?:never|always)|must not|shouldn['’]t|should not)\b/i;
const before = (s) => s.length <= 400 && BEFORE.test(s) && !s.endsWith('?');

function score(name, detect) {
  let tp = 0,
    fp = 0,
    fn = 0;
  const wrong = [];
  for (const row of sentences) {
    const said = detect(row.text);
    if (said && row.constraint) tp++;
    else if (said) fp++, wrong.push(`  false positive: ${row.text.slice(0, 90)}`);
    else if (row.constraint) fn++, wrong.push(`  missed:         ${row.text.slice(0, 90)}`);
  }
  const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(0)}%`);
  console.log(
    `${name}: precision ${pct(tp, tp + fp)} (${tp}/${tp + fp}), recall ${pct(tp, tp + fn)} (${tp}/${tp + fn})`,
  );
  if (process.argv.includes('--verbose')) console.log(wrong.join('\n'));
}

console.log(`${sentences.length} labelled sentences, ${sentences.filter((s) => s.constraint).length} constraints`);
score('before', before);
score('now   ', isConstraint);
