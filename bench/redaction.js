// @ts-check
// Redaction figures: recall per kind of fake secret (test/fixtures/secrets), false positives
// per 10,000 lines of real text (this repository's src/, node_modules/ read at run time, the
// real transcripts in test/fixtures/transcripts/), and the worst time of one redaction on
// 1 MB of adversarial input. Asserts nothing.
//   node bench/redaction.js [--seeds 3]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { internals } from './internals.js';
import { corpus, leaks } from '../test/fixtures/secrets/corpus.js';

const seeds = Number(process.argv[process.argv.indexOf('--seeds') + 1]) || 3;
const [{ redactSecrets, findSecrets, ALL_RULES }] = await internals('security/redact.ts');

const missed = new Map();
let planted = 0;
for (let seed = 1; seed <= seeds; seed++)
  for (const p of corpus(seed)) {
    planted++;
    if (leaks(redactSecrets(p.text).text, p.material)) missed.set(p.kind, (missed.get(p.kind) ?? 0) + 1);
  }
const kinds = corpus(1).length;
const leaked = [...missed.values()].reduce((a, b) => a + b, 0);
console.log(
  `recall: ${kinds} kinds x ${seeds} seeds: ${(((planted - leaked) / planted) * 100).toFixed(1)}% (${planted - leaked}/${planted})`,
);
for (const [kind, n] of missed) console.log(`  missed ${kind}: ${n}/${seeds}`);

/** @param {string} dir @param {RegExp} keep @returns {string[]} */
function files(dir, keep) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, keep));
    else if (keep.test(e.name) && statSync(p).size < 2e6) out.push(p);
  }
  return out;
}
for (const [name, list] of [
  ['src/', files('src', /\.ts$/)],
  ['node_modules/', files('node_modules', /\.(js|mjs|cjs|ts|md|json)$/)],
  ['test/fixtures/transcripts/', files('test/fixtures/transcripts', /./)],
]) {
  let lines = 0;
  let found = 0;
  for (const f of /** @type {string[]} */ (list)) {
    const text = readFileSync(f, 'utf8');
    lines += text.split('\n').length;
    found += findSecrets(text).length;
  }
  console.log(
    `false positives in ${name}: ${found} in ${lines} lines = ${((found / lines) * 1e4).toFixed(2)} per 10,000 lines`,
  );
}

// The worst of each rule's adversarial inputs (its keyword, then long runs of an alphabet):
// every input is timed at 64 KB, and the five slowest again at 1 MB.
const ALPHABETS = [
  'aA0_',
  'abcdefghijklmnopqrstuvwxyz0123456789',
  'Zz9+/=',
  ' \t',
  '.-_',
  '=:"\' ',
  '0123456789',
  '\n ',
  'a.b-c+1',
];
/** @param {string} k @param {string} a @param {number} size */
function adversarial(k, a, size) {
  let unit = k;
  for (let i = 0; unit.length < k.length + 4096; i++) unit += a[i % a.length];
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}
/** @param {string} text */
function timed(text) {
  const start = performance.now();
  redactSecrets(text);
  return performance.now() - start;
}
const keywords = new Set(ALL_RULES.flatMap((/** @type {{keywords?: string[]}} */ r) => r.keywords ?? ['']));
const candidates = [...keywords].flatMap((k) =>
  ALPHABETS.map((a) => ({ k, a, ms: timed(adversarial(k, a, 1 << 16)) })),
);
candidates.sort((x, y) => y.ms - x.ms);
let worst = { ms: 0, what: '' };
for (const { k, a } of candidates.slice(0, 5)) {
  const ms = timed(adversarial(k, a, 1 << 20));
  if (ms > worst.ms) worst = { ms, what: `${JSON.stringify(k)} then runs of ${JSON.stringify(a)}` };
}
console.log(
  `worst redaction of 1 MB adversarial input (node ${process.version}): ${worst.ms.toFixed(0)} ms (${worst.what})`,
);
