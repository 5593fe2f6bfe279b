#!/usr/bin/env node
// @ts-check
// Median wall time of the agent hook entry points, next to a bare `node -e 0` and the
// pieces they are made of, in a real temporary repository with a handoff and a pin.
// Usage: node bench/agent-hooks.js [runs]   (build first: npm run build)
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv } from './env.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'handoff.js');
const TRANSCRIPT = path.join(
  here,
  '..',
  'test',
  'fixtures',
  'transcripts',
  'claude-code',
  'codemie-4c2ddfdc-v2.0.64.jsonl',
);
const runs = Number(process.argv[2]) || 21;
const dist = (file) => pathToFileURL(path.join(here, '..', 'dist', file)).href;

const root = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-'));
const dir = path.join(root, 'repo');
const env = benchEnv();
const git = (...args) => execFileSync('git', args, { cwd: dir, env });
const handoff = (args, input = '') =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, input, encoding: 'utf8' });

mkdirSync(dir);
git('init', '-q', '-b', 'main');
for (let i = 0; i < 20; i++) {
  writeFileSync(path.join(dir, `file${i}.ts`), `export const x${i} = ${i};\n`);
  git('add', '-A');
  git('commit', '-q', '-m', `commit ${i}`);
}
handoff(['init']);
handoff(['pin', 'never touch src/auth']);
writeFileSync(path.join(dir, 'file0.ts'), 'export const x0 = 100;\n');
if (handoff(['new', 'build the teams page', '--no-edit']).status !== 0) throw new Error('setup failed');

// Pre-compact adds a handoff on every run: it gets its own copy, so the other rows
// always see one handoff. A third copy holds 200 finished handoffs from other branches,
// because resume parses every handoff file to find the newest open one.
const compactDir = path.join(root, 'compact');
cpSync(dir, compactDir, { recursive: true });
const manyDir = path.join(root, 'many');
cpSync(dir, manyDir, { recursive: true });
const handoffs = path.join(manyDir, '.handoff', 'handoffs');
const [one] = readdirSync(handoffs);
const sample = readFileSync(path.join(handoffs, one), 'utf8');
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
for (let i = 0; i < 200; i++) {
  const id = `00${i
    .toString(32)
    .padStart(24, '0')
    .replace(/[0-9a-v]/g, (d) => ALPHABET[parseInt(d, 32)])}`;
  writeFileSync(
    path.join(handoffs, `${id}.md`),
    sample
      .replace(one.slice(0, 26), id)
      .replace('status: "open"', 'status: "done"')
      .replace('branch: "main"', `branch: "feature-${i}"`),
  );
}
{
  const listed = spawnSync(process.execPath, [BIN, 'list', '--json'], { cwd: manyDir, env, encoding: 'utf8' });
  const count = JSON.parse(listed.stdout).handoffs.length;
  if (count !== 201 || listed.stderr) throw new Error(`bad bench setup: ${count} handoffs listed; ${listed.stderr}`);
}

const start = JSON.stringify({
  session_id: 'bench',
  transcript_path: TRANSCRIPT,
  cwd: dir,
  hook_event_name: 'SessionStart',
  source: 'startup',
});
const compact = JSON.stringify({
  session_id: 'bench',
  transcript_path: TRANSCRIPT,
  cwd: dir,
  hook_event_name: 'PreCompact',
  trigger: 'auto',
  custom_instructions: '',
});

// One timed run; rows are measured round-robin so machine load hits them all alike.
function once(cmd, args, input = '', cwd = dir) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return ms;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** @type {Array<[string, () => number]>} */
const rows = [
  ['node -e 0 (bare node)', () => once(process.execPath, ['-e', '0'])],
  // Resolved from this package's own node_modules.
  [
    'node: import yaml',
    () => once(process.execPath, ['--input-type=module', '-e', "await import('yaml')"], '', path.join(here, '..')),
  ],
  [
    "node: import dist/cli/cli.js (the bundle's entry)",
    () => once(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(dist('cli/cli.js'))})`]),
  ],
  ['git rev-parse HEAD (one git process; the hook runs 6)', () => once('git', ['rev-parse', 'HEAD'])],
  ['handoff --version (launcher + cli + context modules)', () => once(process.execPath, [BIN, '--version'])],
  ['handoff list (no git)', () => once(process.execPath, [BIN, 'list'])],
  ['handoff resume', () => once(process.execPath, [BIN, 'resume'])],
  ['handoff hook claude-session-start', () => once(process.execPath, [BIN, 'hook', 'claude-session-start'], start)],
  [
    'handoff hook claude-session-start, 200 other handoffs',
    () => once(process.execPath, [BIN, 'hook', 'claude-session-start'], start, manyDir),
  ],
  [
    'handoff hook claude-pre-compact (writes a handoff)',
    () => once(process.execPath, [BIN, 'hook', 'claude-pre-compact'], compact, compactDir),
  ],
];

/** @type {number[][]} */
const times = rows.map(() => []);
for (let i = 0; i < runs; i++) rows.forEach(([, measure], r) => times[r].push(measure()));
const results = rows.map(([name], r) => [name, median(times[r])]);

const bare = results[0][1];
console.log(`median of ${runs} runs, node ${process.version}, ${os.cpus().length} cores`);
for (const [name, ms] of results)
  console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / bare).toFixed(2)}x bare node`);
rmSync(root, { recursive: true, force: true });
