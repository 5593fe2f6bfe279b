// @ts-check
// Redaction figures: recall per placement and kind of fake secret (test/fixtures/secrets),
// each placement a path through the built CLI where a user pastes a secret; recall of the
// patterns alone over several seeds; false positives per 10,000 lines of real text (this
// repository's src/, node_modules/ read at run time, the real transcripts in
// test/fixtures/transcripts/); and the worst time of one redaction of 1 MB of adversarial
// input. Asserts nothing. Run after `npm run build`, with the node whose figures you want:
//   node bench/redaction.js [--seeds 3] [--no-cli]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';
import { corpus, leaks } from '../test/fixtures/secrets/corpus.js';

const seeds = Number(process.argv[process.argv.indexOf('--seeds') + 1]) || 3;
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/handoff.js');
const [{ redactSecrets, findSecrets, ALL_RULES }] = await internals('security/redact.ts');

if (!process.argv.includes('--no-cli')) placements();

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

/** Recall through the CLI, per placement: the secrets of seed 1 planted where a user would. */
function placements() {
  const planted = corpus(1);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-redaction-'));
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: dir,
    EDITOR: 'true',
    GIT_AUTHOR_DATE: '2026-01-05T10:00:00Z',
  };
  const git = (/** @type {string[]} */ ...args) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  const run = (/** @type {string[]} */ args, input = '') => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, input, encoding: 'utf8' });
    return { code: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
  };
  const repo = path.join(dir, 'repo');
  spawnSync('git', ['init', '-q', '-b', 'main', repo], { env });
  for (const [k, v] of [
    ['user.name', 'A'],
    ['user.email', 'a@example.com'],
    ['commit.gpgSign', 'false'],
  ])
    git('config', k, v);
  git('commit', '-q', '--allow-empty', '-m', 'init');
  run(['init']);
  const read = (/** @type {string} */ rel) => readFileSync(path.join(repo, rel), 'utf8');
  const handoffs = () =>
    readdirSync(path.join(repo, '.handoff/handoffs'))
      .map((f) => read(`.handoff/handoffs/${f}`))
      .join('\n');
  const pins = () =>
    readdirSync(path.join(repo, '.handoff/pins'))
      .map((f) => read(`.handoff/pins/${f}`))
      .join('\n');
  /** @type {Map<string, Map<string, boolean>>} placement -> kind -> leaked */
  const results = new Map();
  const record = (
    /** @type {string} */ where,
    /** @type {typeof planted} */ kinds,
    /** @type {(p: typeof planted[number]) => string} */ output,
  ) => {
    const row = results.get(where) ?? new Map();
    for (const p of kinds) row.set(p.kind, leaks(output(p), p.material));
    results.set(where, row);
  };
  const oneLine = planted.filter((p) => p.oneLine);
  const claude = (/** @type {string[]} */ texts) =>
    texts
      .map((text, i) =>
        JSON.stringify({
          parentUuid: null,
          isSidechain: false,
          userType: 'external',
          cwd: repo,
          sessionId: 's',
          version: '2.0.64',
          gitBranch: 'main',
          type: 'user',
          message: { role: 'user', content: text },
          uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
          timestamp: '2026-01-05T10:00:00.000Z',
        }),
      )
      .join('\n') + '\n';

  // A handoff body (new -F).
  writeFileSync(
    path.join(dir, 'body.md'),
    `## Goal\n\nkeys\n\n## Notes\n\n${planted.map((p) => p.text).join('\n\n')}\n`,
  );
  const body = run(['new', 'the body', '-F', path.join(dir, 'body.md')]);
  record('handoff body (new -F)', planted, () => handoffs() + body.out);
  // A transcript read by new --from: one user message per kind, ten kinds a session.
  for (let i = 0; i < planted.length; i += 10) {
    const some = planted.slice(i, i + 10);
    writeFileSync(path.join(dir, 't.jsonl'), claude(some.map((p) => `here is the config:\n${p.text}\nuse it`)));
    const r = run(['new', 'from the transcript', '--from', path.join(dir, 't.jsonl'), '--no-edit', '--fresh']);
    record('transcript (new --from)', some, () => handoffs() + r.out);
  }
  // The user's rules in a transcript, pinned by --pin-candidates.
  writeFileSync(path.join(dir, 'c.jsonl'), claude(oneLine.map((p) => `never deploy without ${p.text}`)));
  const cand = run([
    'new',
    'candidates',
    '--from',
    path.join(dir, 'c.jsonl'),
    '--pin-candidates',
    '--no-edit',
    '--fresh',
  ]);
  record('--pin-candidates', oneLine, () => pins() + handoffs() + cand.out);
  // A goal, ten kinds a goal.
  for (let i = 0; i < oneLine.length; i += 10) {
    const some = oneLine.slice(i, i + 10);
    const r = run(['new', `deploy with ${some.map((p) => p.text).join(' and ')}`, '--no-edit', '--fresh']);
    record('goal (new "<goal>")', some, () => handoffs() + r.out);
  }
  // A pin, one run per kind (refused when a secret is seen).
  for (const p of planted) {
    writeFileSync(path.join(dir, 'pin.txt'), `the key is ${p.text}`);
    const r = run(['pin', '--file', path.join(dir, 'pin.txt')]);
    record('pin', [p], () => pins() + r.out);
  }
  // Committed by hand (or by an older version): a handoff with every kind, one per one-line
  // kind in its goal, a pin per kind; then every command that prints them.
  const id = (/** @type {number} */ i) => `01jx7k2m9q8r4s5t6v7w${String(i).padStart(6, '0')}`;
  const handoff = (/** @type {number} */ i, /** @type {string} */ goal, /** @type {string} */ text) =>
    `---\nid: "${id(i)}"\ngoal: ${JSON.stringify(goal)}\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nbranch: "main"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n## Goal\n\n${goal}\n\n## Next steps\n\n${text}\n\n## Decisions\n\n${text}\n`;
  rmSync(path.join(repo, '.handoff/handoffs'), { recursive: true });
  rmSync(path.join(repo, '.handoff/pins'), { recursive: true });
  spawnSync('mkdir', ['-p', path.join(repo, '.handoff/handoffs'), path.join(repo, '.handoff/pins')]);
  const all = planted.map((p) => p.text).join('\n\n');
  writeFileSync(path.join(repo, `.handoff/handoffs/${id(0)}.md`), handoff(0, 'every kind', all));
  oneLine.forEach((p, i) =>
    writeFileSync(
      path.join(repo, `.handoff/handoffs/${id(i + 1)}.md`),
      handoff(i + 1, `deploy with ${p.text}`, '- ok'),
    ),
  );
  planted.forEach((p, i) =>
    writeFileSync(
      path.join(repo, `.handoff/pins/${id(500 + i)}.md`),
      `---\nid: "${id(500 + i)}"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nstatus: "active"\n---\n${p.text}\n`,
    ),
  );
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'planted');
  const resume = run(['resume', id(0)]).out + run(['resume', id(0), '--json']).out;
  record('resume of a committed handoff', planted, () => resume);
  const pinsOut = run(['pins']).out + run(['pins', '--json']).out;
  record('pins', planted, () => pinsOut);
  const roadmap = run(['roadmap']);
  record('roadmap', planted, () => read('.handoff/ROADMAP.md') + roadmap.out);
  const show = run(['show', id(0)]).out + run(['show', id(0), '--json']).out;
  record('show', planted, () => show);
  const list = run(['list']).out + run(['list', '--json']).out;
  record('list', oneLine, () => list);
  rmSync(dir, { recursive: true, force: true });

  console.log(`recall per placement through the CLI (${process.version}, seed 1, ${planted.length} kinds):`);
  const missedKinds = new Map();
  for (const [where, row] of results) {
    const leaked = [...row].filter(([, l]) => l).map(([k]) => k);
    for (const k of leaked) missedKinds.set(k, [...(missedKinds.get(k) ?? []), where]);
    console.log(
      `  ${where}: ${(((row.size - leaked.length) / row.size) * 100).toFixed(1)}% (${row.size - leaked.length}/${row.size})`,
    );
  }
  for (const [kind, where] of missedKinds) console.log(`  leaked ${kind}: ${where.join(', ')}`);
}
