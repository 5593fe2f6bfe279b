#!/usr/bin/env node
// @ts-check
// Start-up cost of the commands agents and hooks run most, next to a bare `node -e 0`,
// measured in the same run on the same machine. Prints medians; asserts nothing.
//   node bench/startup.js [runs]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 21);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/handoff.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_EDITOR: ':' };
const git = (...args) => execFileSync('git', args, { cwd: dir, env });
const handoff = (...args) =>
  execFileSync(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });

git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.com');
git('commit', '-q', '--allow-empty', '-m', 'root');
handoff('init');
handoff('pin', 'never touch the auth module');
for (let i = 0; i < 100; i++) handoff('new', `handoff number ${i}`, '--no-edit');

function median(command, args) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd: dir, env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

// Warm the compile cache once, as a second run on a user's machine would be.
median(process.execPath, [bin, 'list']);
const rows = [
  ['node -e 0', median(process.execPath, ['-e', '0'])],
  ['handoff --version', median(process.execPath, [bin, '--version'])],
  ['handoff list (100 handoffs)', median(process.execPath, [bin, 'list'])],
  ['handoff resume', median(process.execPath, [bin, 'resume'])],
];
const floor = rows[0][1];
console.log(`median of ${runs} runs, ${os.cpus().length} cores, node ${process.version}`);
for (const [name, ms] of rows)
  console.log(`${name.padEnd(30)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / floor).toFixed(2)}x`);
rmSync(dir, { recursive: true, force: true });
