#!/usr/bin/env node
// @ts-check
// Figures for the git integration (run after `npm run build`): `node bench/hooks.js`.
//
// 1. In a repository with 5,000 files and 500 handoffs, the median `git commit` time,
//    measured side by side in one run, interleaved, for three set-ups:
//      none   - no hooks at all
//      floor  - a one-line shell pre-commit that runs a single git command
//      handoff- the hooks `handoff hooks install` writes
//    for a commit that does not touch .handoff/ and for one that does.
// 2. `handoff roadmap` with 1,000 handoffs and 200 pins (the whole command, from start).
//
// Prints figures; asserts nothing. Machines are noisy: compare within one run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';
import { benchEnv } from './env.js';

const [{ serializeHandoff }, { serializePin }] = await internals('store/handoff.ts', 'store/pin.ts');

const BIN = fileURLToPath(new URL('../bin/handoff.js', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const env = benchEnv();

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
function id(n) {
  let s = '';
  for (let i = 0, v = n; i < 16; i++, v = Math.floor(v / 32)) s = CROCKFORD[v % 32] + s;
  return `01jx${s}abcdef`;
}

function write(dir, file, content) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
}

function handoff(n, handoffs) {
  const status = n % 5 === 0 ? 'open' : n % 5 === 1 ? 'superseded' : 'done';
  return serializeHandoff(
    {
      id: id(n),
      goal: `goal number ${n}: make the thing ${n} work`,
      status,
      created: '2026-01-05T10:00:00.000Z',
      author: 'Bench <bench@example.com>',
      branch: `branch-${n % 7}`,
      base: null,
      head: null,
      parent: n > 0 && n % 3 !== 0 ? id(n - 1) : null,
      ...(status === 'done' ? { finished: '2026-01-06T10:00:00.000Z' } : {}),
      ...(status === 'superseded' && n + 1 < handoffs ? { superseded_by: id(n + 1) } : {}),
      files: [{ path: `src/d${n % 50}/f${n}.ts`, change: 'modified', state: 'committed', insertions: 3, deletions: 1 }],
    },
    `## Goal\n\nGoal ${n}.\n\n## Next steps\n\n- step one for ${n}\n- step two\n\n## Open questions\n\n- is ${n} right?\n`,
  );
}

function makeRepo(files, handoffs, pins) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-'));
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgSign', 'false');
  for (let i = 0; i < files; i++) write(dir, `src/d${i % 50}/f${i}.ts`, `export const v${i} = ${i};\n`);
  for (let n = 0; n < handoffs; n++) write(dir, `.handoff/handoffs/${id(n)}.md`, handoff(n, handoffs));
  for (let n = 0; n < pins; n++)
    write(
      dir,
      `.handoff/pins/${id(100000 + n)}.md`,
      serializePin(
        { id: id(100000 + n), created: '2026-01-05T10:00:00.000Z', author: 'Bench', status: 'active' },
        `rule ${n}: never do thing ${n}\n`,
      ),
    );
  const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8' });
  run('init');
  run('roadmap');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'seed');
  return { dir, git, run };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

function timed(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

// ---- 1. commits ----
const repo = makeRepo(5000, 500, 20);
const hooks = path.join(repo.dir, '.git', 'hooks');
const setups = {
  none: () => rmSync(hooks, { recursive: true, force: true }),
  floor: () => {
    rmSync(hooks, { recursive: true, force: true });
    mkdirSync(hooks);
    writeFileSync(path.join(hooks, 'pre-commit'), '#!/bin/sh\ngit diff --cached --quiet -- .handoff || true\n');
    chmodSync(path.join(hooks, 'pre-commit'), 0o755);
  },
  handoff: () => {
    rmSync(hooks, { recursive: true, force: true });
    mkdirSync(hooks);
    const r = repo.run('hooks', 'install');
    if (r.status !== 0) throw new Error(r.stderr);
  },
};
const results = {};
let counter = 0;
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order each round so no set-up always follows the same one.
  const order = Object.entries(setups);
  for (const [name, setUp] of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
    setUp();
    for (const kind of ['code', 'handoff']) {
      counter++;
      if (kind === 'code')
        write(repo.dir, `src/d${counter % 50}/f${counter % 5000}.ts`, `export const changed = ${counter};\n`);
      else
        write(
          repo.dir,
          `.handoff/handoffs/${id(counter % 500)}.md`,
          handoff(counter % 500, 500).replace(/goal number \d+/, `goal changed ${counter}`),
        );
      repo.git('add', '-A');
      const t = timed(() => {
        const r = spawnSync('git', ['commit', '-q', '-m', `${name} ${kind} ${round}`], {
          cwd: repo.dir,
          env,
          encoding: 'utf8',
        });
        if (r.status !== 0) throw new Error(`commit failed: ${r.stderr}`);
      });
      // Keep the roadmap current for every set-up so each commit does comparable work.
      if (name !== 'handoff' && kind === 'handoff') {
        repo.run('roadmap');
        repo.git('add', '-A');
        repo.git('commit', '-q', '--no-verify', '--allow-empty', '-m', 'sync roadmap');
      }
      if (round > 0) (results[`${name}/${kind}`] ??= []).push(t); // round 0 warms caches
    }
  }
}
const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
console.log(
  `git commit, 5,000 files and 500 handoffs, median of ${ROUNDS - 1} interleaved rounds (node ${process.version}, git ${execFileSync('git', ['--version'], { encoding: 'utf8' }).trim().split(' ')[2]})`,
);
console.log('                               none       floor      handoff');
for (const kind of ['code', 'handoff']) {
  console.log(
    `${kind === 'code' ? 'not touching .handoff/ ' : 'touching .handoff/     '}   ${ms(m[`none/${kind}`]).padStart(9)}  ${ms(m[`floor/${kind}`]).padStart(9)}  ${ms(m[`handoff/${kind}`]).padStart(9)}`,
  );
}
console.log(
  `not touching .handoff/: handoff hooks vs floor hook: ${(((m['handoff/code'] - m['floor/code']) / m['floor/code']) * 100).toFixed(1)}% (target: within 15%)`,
);
console.log(
  `touching .handoff/: added by handoff hooks vs no hooks: ${ms(m['handoff/handoff'] - m['none/handoff'])} (target: under 150 ms)`,
);
rmSync(repo.dir, { recursive: true, force: true });

// ---- 2. roadmap ----
const big = makeRepo(10, 1000, 200);
const times = [];
for (let i = 0; i < 7; i++) {
  rmSync(path.join(big.dir, '.handoff', 'ROADMAP.md'), { force: true });
  times.push(
    timed(() => {
      const r = big.run('roadmap');
      if (r.status !== 0) throw new Error(r.stderr);
    }),
  );
}
const node = median(Array.from({ length: 5 }, () => timed(() => spawnSync(process.execPath, ['-e', '0']))));
console.log(
  `handoff roadmap, 1,000 handoffs and 200 pins: median ${ms(median(times.slice(1)))} of 6 runs (a bare node start here: ${ms(node)})`,
);
rmSync(big.dir, { recursive: true, force: true });
