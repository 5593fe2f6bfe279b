#!/usr/bin/env node
// @ts-check
// How close the token estimate (src/transcripts/tokens.ts) is to the exact o200k_base count
// (gpt-tokenizer, a devDependency used here only), on the repository's real text:
//   1. whole files: the transcript fixtures, the templates and docs the prompts are made of;
//   2. each user message the transcripts hold (what the recent-user budget counts), through
//      the real readers and extraction;
//   3. each model prompt `handoff new --llm` would send for each transcript (what the
//      context budget counts), built as the program builds it.
// Error is (estimate - exact) / exact: positive means the estimate is larger (safe for a
// budget). Then the cost of each: the tokenizer's load and both counters' speed.
//
//   npm run build && node bench/tokens.js [--rounds 3]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { internals } from './internals.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log('node bench/tokens.js [--rounds N]   (N rounds of the speed figures; 3 for the report)');
  process.exit(0);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const fixtures = path.join(root, 'test/fixtures/transcripts');

const [{ estimateTokens }, { openTranscript }, { Extractor }, { transcriptPart }, { buildPrompt }, { readTemplate }] =
  await internals(
    'transcripts/tokens.ts',
    'transcripts/open.ts',
    'transcripts/extract.ts',
    'model/transcript-model.ts',
    'model/model-prompt.ts',
    'store/templates.ts',
  );
const loadStart = performance.now();
const { countTokens } = await import('gpt-tokenizer');
const exact = (t) => countTokens(t, { disallowedSpecial: new Set() });
exact('warm');
const loadMs = performance.now() - loadStart;

const pct = (e, x) => (x === 0 ? 0 : ((e - x) / x) * 100);
const fmt = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}%`;
/** Summary of per-text errors: the total's error, and the spread of the texts' errors. */
function summary(label, pairs) {
  const errors = pairs.map(([e, x]) => pct(e, x)).sort((a, b) => a - b);
  const at = (q) => errors[Math.min(errors.length - 1, Math.floor(q * errors.length))] ?? 0;
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  const [e, x] = pairs.reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
  console.log(
    `${label}: ${pairs.length} texts, ${x.toLocaleString('en-US')} exact tokens, total ${fmt(pct(e, x))}; ` +
      `per text: median |error| ${abs[Math.floor(abs.length / 2)]?.toFixed(1) ?? 0}%, p10 ${fmt(at(0.1))}, p90 ${fmt(at(0.9))}, min ${fmt(errors[0] ?? 0)}, max ${fmt(errors.at(-1) ?? 0)}`,
  );
}

const transcripts = readdirSync(fixtures, { recursive: true })
  .map((f) => path.join(fixtures, String(f)))
  .filter((f) => /\.(jsonl|json|md)$/.test(f) && !/(SOURCES|RECORDED)\.md$/.test(f))
  .sort();
const prose = [
  ...readdirSync(path.join(root, 'templates')).map((f) => path.join(root, 'templates', f)),
  ...readdirSync(path.join(root, 'docs')).map((f) => path.join(root, 'docs', f)),
  path.join(root, 'README.md'),
].filter((f) => statSync(f).isFile());

console.log('1. whole files (estimate, exact, error)');
const files = [];
for (const f of [...transcripts, ...prose]) {
  const text = readFileSync(f, 'utf8');
  const pair = [estimateTokens(text), exact(text)];
  files.push(pair);
  console.log(`  ${path.relative(root, f)}: ${pair[0]}, ${pair[1]}, ${fmt(pct(pair[0], pair[1]))}`);
}
summary('whole files', files);

const templates = { system: await readTemplate('model-system.md'), request: await readTemplate('model-request.md') };
const draft = (await readTemplate('handoff.md'))
  .replace(/\{\{goal\}\}/, 'continue the work')
  .replace(/\{\{[a-z_]+\}\}\n\n?/g, '');
const users = [];
const prompts = [];
for (const f of transcripts) {
  const opened = await openTranscript(f, path.basename(f));
  const x = new Extractor(opened.agent);
  for await (const e of opened.events()) x.add(e);
  const result = x.result();
  for (const m of result.recentUser) if (m.text.trim()) users.push([estimateTokens(m.text), exact(m.text)]);
  const input = {
    goal: 'continue the work',
    files: [],
    commits: [],
    draft,
    pins: [{ id: '01jx7k2m000000000000000000', text: 'never touch src/auth' }],
    transcript: transcriptPart(result),
  };
  // The prompt as sent under a roomy budget, then counted both ways.
  const prompt = buildPrompt(input, templates, 1_000_000, estimateTokens);
  const text = prompt.messages.map((m) => m.content).join('\n');
  prompts.push([estimateTokens(text), exact(text)]);
}
summary('2. user messages', users);
summary('3. model prompts', prompts);

const corpus = [...transcripts, ...prose].map((f) => readFileSync(f, 'utf8')).join('\n');
const mb = Buffer.byteLength(corpus) / 1e6;
const rounds = Math.max(1, Number(values.rounds));
const speed = (fn) => {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn(corpus);
    best = Math.min(best, performance.now() - t);
  }
  return best;
};
const est = speed(estimateTokens);
const ex = speed(exact);
console.log(`\ncost: gpt-tokenizer's import and first count ${loadMs.toFixed(0)} ms (the estimate loads nothing)`);
console.log(
  `speed over ${mb.toFixed(1)} MB, best of ${rounds}: estimate ${est.toFixed(0)} ms (${(mb / (est / 1000)).toFixed(0)} MB/s), exact ${ex.toFixed(0)} ms (${(mb / (ex / 1000)).toFixed(0)} MB/s)`,
);
