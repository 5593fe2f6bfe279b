#!/usr/bin/env node
// @ts-check
// The team's view at scale: `handoff list --all` and `handoff roadmap --all` on a repository
// with --branches branches (plus main) and --handoffs distinct handoff files in all (half
// on main, which every branch shares, the rest spread over the branches), read from git
// objects. Prints the median wall time of --rounds runs with the parse cache warm, and one
// run with it removed (cold). Run after `npm run build`:
//
//   node bench/list-all.js [--branches 50] [--handoffs 1000] [--rounds 5]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv } from './env.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bin/handoff.js');
const { values } = parseArgs({
  options: {
    branches: { type: 'string', default: '50' },
    handoffs: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
  },
});
const branches = Number(values.branches);
const total = Number(values.handoffs);
const rounds = Number(values.rounds);
const env = benchEnv();

const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-'));
const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });

// Ids: 26 characters of Crockford base32, time-ordered by n.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const id = (/** @type {number} */ n) => {
  let s = '';
  for (let v = n, i = 0; i < 8; i++, v = Math.floor(v / 32)) s = ALPHABET[v % 32] + s;
  return `01m8${s}${'0'.repeat(14)}`;
};
const handoff = (/** @type {number} */ n, /** @type {string} */ branch) =>
  [
    '---',
    `id: "${id(n)}"`,
    `goal: "goal number ${n}"`,
    `status: "${n % 3 === 0 ? 'done' : 'open'}"`,
    `created: "2026-01-05T10:00:00.000Z"`,
    `author: "b <b@example.com>"`,
    `branch: "${branch}"`,
    'base: null',
    'head: null',
    `parent: ${n > 0 && n % 4 !== 0 ? `"${id(n - 1)}"` : 'null'}`,
    'files: []',
    '---',
    '',
    '## Goal',
    '',
    `goal number ${n}`,
    '',
    '## Next steps',
    '',
    `- step ${n}`,
    '',
  ].join('\n');
const write = (/** @type {number} */ n, /** @type {string} */ branch) => {
  const file = path.join(dir, '.handoff/handoffs', `${id(n)}.md`);
  writeFileSync(file, handoff(n, branch));
};

git('init', '-q', '-b', 'main');
mkdirSync(path.join(dir, '.handoff/handoffs'), { recursive: true });
const onMain = Math.floor(total / 2);
for (let n = 0; n < onMain; n++) write(n, 'main');
git('add', '-A');
git('commit', '-q', '-m', 'main');
const perBranch = Math.ceil((total - onMain) / branches);
let n = onMain;
for (let b = 0; b < branches; b++) {
  git('checkout', '-q', '-b', `feature-${b}`, 'main');
  for (let i = 0; i < perBranch && n < total; i++, n++) write(n, `feature-${b}`);
  git('add', '-A');
  git('commit', '-q', '-m', `feature ${b}`);
}
git('checkout', '-q', 'main');

const cache = path.join(dir, '.git/handoff-cache.json');
const time = (/** @type {string[]} */ args) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`handoff ${args.join(' ')}: ${r.stderr}`);
  return { ms, out: r.stdout };
};
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`${branches} branches + main, ${n} distinct handoff files (${onMain} on main, shared by every branch)`);
for (const args of [
  ['list', '--all'],
  ['list', '--all', '--json'],
  ['roadmap', '--all'],
]) {
  rmSync(cache, { force: true });
  const cold = time(args);
  const warm = median(Array.from({ length: rounds }, () => time(args).ms));
  const rows = args.includes('--json') ? JSON.parse(cold.out).handoffs.length : cold.out.split('\n').length - 1;
  console.log(
    `handoff ${args.join(' ')}: cold ${cold.ms.toFixed(0)} ms, warm median of ${rounds} ${warm.toFixed(0)} ms (${rows} ${args.includes('--json') ? 'rows' : 'lines'})`,
  );
}
rmSync(dir, { recursive: true, force: true });
