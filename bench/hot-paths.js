#!/usr/bin/env node
// @ts-check
// The paths that run on every agent session start and every commit, measured in one
// interleaved run next to `node -e 0` on the same node binary: `handoff resume`,
// `handoff hook claude-session-start`, and a commit of a new handoff with the git hooks
// installed against the same commit without them. 30 handoffs and 2 pins; resume and the
// hook find a 31st that was written with work in progress (a changed file and a new one)
// and committed with it, as a session start usually does; resume also runs where the
// newest handoff lists no file, and right after a new commit (a prompt never seen, so
// redacted in full). Prints medians and the overhead, and on Linux the mean CPU time of
// each run with the processes it starts (steadier than wall time on a busy machine);
// asserts nothing.
//   node bench/hot-paths.js [--node <binary>] [--rounds 31] [--bin <other bin/handoff.js>]...
// Each --bin (another build or checkout of this package, e.g. before a change) is measured
// in the same interleaved run as this one, in repositories of its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '31' },
    bin: { type: 'string', multiple: true, default: [] },
  },
});
const node = values.node;
const rounds = Number(values.rounds);
const bins = [
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/handoff.js'),
  ...values.bin.map((b) => path.resolve(b)),
];
const top = mkdtempSync(path.join(os.tmpdir(), 'handoff-hot-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_EDITOR: ':', HOME: top };
for (const k of Object.keys(env))
  if (k.startsWith('HANDOFF_') || (k.startsWith('GIT_') && !k.startsWith('GIT_CONFIG') && k !== 'GIT_EDITOR'))
    delete env[k];

/** 30 handoffs and 2 pins; with `work`, a 31st written with work in progress, committed since (what a session start usually finds). */
function repo(name, bin, hooks, work = false) {
  const dir = path.join(top, name);
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' });
  const handoff = (...args) => execFileSync(node, [bin, ...args], { cwd: dir, env, stdio: 'pipe' });
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env });
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.com');
  git('commit', '-q', '--allow-empty', '-m', 'root');
  handoff('init');
  handoff('pin', 'never touch the auth module');
  handoff('pin', 'keep the public API stable');
  for (let i = 0; i < 30; i++) handoff('new', `handoff number ${i}`, '--no-edit');
  if (work) {
    writeFileSync(path.join(dir, 'app.js'), 'export const version = 1;\n');
    git('add', 'app.js');
    git('commit', '-q', '-m', 'app');
    writeFileSync(path.join(dir, 'app.js'), 'export const version = 2;\n');
    writeFileSync(path.join(dir, 'notes.md'), 'what is left\n');
    handoff('new', 'work in progress', '--no-edit');
  }
  handoff('roadmap');
  if (hooks) handoff('hooks', 'install');
  git('add', '-A');
  git('commit', '-q', '-m', 'handoffs');
  return { dir, git, handoff };
}

/**
 * CPU time (user and system) of the children reaped so far, in ms: /proc/self/stat's cutime
 * and cstime, which count a child's own children too (the git a run starts, the hooks a
 * commit runs). Steadier than wall time on a busy machine. null where there is no /proc.
 */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS;
  } catch {
    return null;
  }
}
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();
/** CPU ms of the last timed run (null: not measured here). */
let lastCpu = /** @type {number | null} */ (null);

function timed(command, args, options) {
  const cpu = childrenCpu();
  const t = process.hrtime.bigint();
  const r = spawnSync(command, args, { env, stdio: ['pipe', 'ignore', 'pipe'], ...options });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const after = childrenCpu();
  lastCpu = cpu === null || after === null ? null : after - cpu;
  if (r.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

// A commit of a fresh handoff: written and staged untimed, committed timed.
function commit(r, i) {
  r.handoff('new', `round ${i}`, '--no-edit');
  r.git('add', '-A');
  return timed('git', ['commit', '-q', '-m', `round ${i}`], { cwd: r.dir });
}

/** @type {Record<string, (round: number) => number>} */
const paths = { 'node -e 0': () => timed(node, ['-e', '0'], { cwd: top }) };
const label = (i) => (bins.length === 1 ? '' : `${i === 0 ? 'this' : `bin ${i}`}: `);
bins.forEach((bin, n) => {
  const withHooks = repo(`hooks-${n}`, bin, true);
  const without = repo(`plain-${n}`, bin, false);
  // Its own repository: the commits below add handoffs to the others.
  const session = repo(`session-${n}`, bin, true, true);
  const start = JSON.stringify({
    session_id: 'bench',
    cwd: session.dir,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  const l = label(n);
  paths[`${l}handoff resume`] = () => timed(node, [bin, 'resume'], { cwd: session.dir });
  paths[`${l}hook claude-session-start`] = () =>
    timed(node, [bin, 'hook', 'claude-session-start'], { cwd: session.dir, input: start });
  // A newest handoff that lists no file: fewer git processes.
  const quiet = repo(`quiet-${n}`, bin, false);
  paths[`${l}handoff resume, no files listed`] = () => timed(node, [bin, 'resume'], { cwd: quiet.dir });
  // A commit since the last session start: a prompt never seen, so redacted in full.
  const moving = repo(`moving-${n}`, bin, false, true);
  paths[`${l}handoff resume after a commit`] = (i) => {
    writeFileSync(path.join(moving.dir, 'log.txt'), `round ${i}\n`);
    moving.git('add', 'log.txt');
    moving.git('commit', '-q', '-m', `work ${i}`);
    return timed(node, [bin, 'resume'], { cwd: moving.dir });
  };
  paths[`${l}commit, no hooks`] = (i) => commit(without, i);
  paths[`${l}commit, hooks installed`] = (i) => commit(withHooks, i);
});
const times = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
/** @type {Record<string, number[]>} */
const cpus = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
// Warm the compile cache and the file cache once, as a second run on a user's machine would be.
for (const [name, run] of Object.entries(paths)) if (!name.startsWith('commit') && !name.includes(': commit')) run(-1);
for (let i = 0; i < rounds; i++) {
  const order = Object.keys(paths).sort(() => Math.random() - 0.5);
  for (const name of order) {
    times[name].push(paths[name](i));
    if (lastCpu !== null) cpus[name].push(lastCpu);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
// Means, not medians: the kernel counts CPU time in clock ticks, which average out over the rounds.
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const c = Object.fromEntries(Object.entries(cpus).map(([k, v]) => [k, v.length === rounds ? mean(v) : null]));
/** ", CPU n (+d over node -e 0)" where CPU time is measured. */
const cpu = (name, over = 'node -e 0') => {
  const mine = c[name];
  const base = c[over];
  return mine == null || base == null ? '' : `; CPU ${mine.toFixed(1)} (+${(mine - base).toFixed(1)})`;
};
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(
  `Node ${version}, ${rounds} interleaved rounds, 30 handoffs and 2 pins (resume: and a 31st with 2 files, committed since); medians in ms; CPU: mean user+system ms of the run and the processes it starts`,
);
console.log(`  node -e 0                        ${m['node -e 0'].toFixed(1)}${cpu('node -e 0').replace(/ \(.*/, '')}`);
bins.forEach((bin, n) => {
  const l = label(n);
  if (l) console.log(`${l}${bin}`);
  for (const name of [
    'handoff resume',
    'hook claude-session-start',
    'handoff resume, no files listed',
    'handoff resume after a commit',
  ]) {
    console.log(
      `  ${name.padEnd(32)} ${m[l + name].toFixed(1)}  (+${(m[l + name] - m['node -e 0']).toFixed(1)} over node -e 0)${cpu(l + name)}`,
    );
  }
  console.log(`  commit, no hooks                 ${m[`${l}commit, no hooks`].toFixed(1)}`);
  console.log(
    `  commit, hooks installed          ${m[`${l}commit, hooks installed`].toFixed(1)}  (+${(m[`${l}commit, hooks installed`] - m[`${l}commit, no hooks`]).toFixed(1)} for the hooks)${cpu(`${l}commit, hooks installed`, `${l}commit, no hooks`)}`,
  );
});
rmSync(top, { recursive: true, force: true });
