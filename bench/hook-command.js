#!/usr/bin/env node
// @ts-check
// The agents' hook command, run as Claude Code runs it (`sh -c <command from
// .claude/settings.json>`, the SessionStart input on stdin) from three real installs of the
// packed package: a global install (`npm install -g --prefix`), a project devDependency
// (`npm install --save-dev`) and npx (`npx --yes --package <tarball> handoff`). PATH holds sh, git and head
// only (plus node where a user's PATH would have it), never our CLI. For each: which CLI
// the command reached, whether the pins came back, and the median time; then the same
// with the install's record in the clone's git config removed (a teammate's clone that
// never ran `agent install`). Offline: npm works from its cache. Prints; asserts nothing.
//   node bench/hook-command.js [runs]      (figures for a report: 21 runs)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.argv.includes('--help')) {
  console.log('node bench/hook-command.js [runs]   (default 5; 21 for figures)');
  process.exit(0);
}
const runs = Number(process.argv[2] ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-cmd-'));
const base = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_EDITOR: ':' };
const npmEnv = { ...base, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
const PIN = 'Keep <Widget> names exactly as written.';

/** A folder with one link per program. */
function linkDir(name, programs) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [as, target] of Object.entries(programs)) symlinkSync(target, path.join(dir, as));
  return dir;
}
const which = (tool) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
const tools = linkDir('tools', { sh: which('sh'), git: which('git'), head: which('head') });
const nodeOnly = linkDir('node', { node: process.execPath });

function repo(name) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: base });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.com');
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  git('add', '.gitignore');
  git('commit', '-q', '-m', 'root');
  return { dir, git };
}

const tarball = path.join(
  scratch,
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch], {
    cwd: root,
    env: npmEnv,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop() ?? '',
);

/** Runs the SessionStart command from the settings file, as the agent would (or `direct`, a command given). */
function measure(dir, PATH, direct) {
  const settings = JSON.parse(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'));
  const command = direct ?? settings.hooks.SessionStart.at(-1).hooks[0].command;
  const input = JSON.stringify({ session_id: 'bench', hook_event_name: 'SessionStart', source: 'startup', cwd: dir });
  const env = { ...base, PATH };
  const probe = spawnSync('sh', ['-c', command.replace(/^handoff_hook=[a-z-]+;/, 'handoff_hook=probe;')], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  let reached = probe.stderr.trim().split('\n')[0] ?? '';
  try {
    reached = JSON.parse(probe.stdout).bin.replace(scratch, '<scratch>').replace(os.homedir(), '~');
  } catch {}
  const times = [];
  let pinned = false;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync('sh', ['-c', command], { cwd: dir, env, input, encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    pinned = r.status === 0 && r.stdout.includes(JSON.stringify(PIN).slice(1, -1));
  }
  times.sort((a, b) => a - b);
  return { reached, pinned, ms: times[Math.floor(times.length / 2)] ?? NaN };
}

function report(kind, dir, PATH, git) {
  // The same hook with the CLI named outright: what finding it costs is the difference.
  const cli = `'${git('config', '--get', 'handoff.node').toString().trim()}' '${(spawnSync('sh', ['-c', 'readlink -f node_modules/.bin/handoff 2>/dev/null || git config --get handoff.bin'], { cwd: dir, env: base, encoding: 'utf8' }).stdout ?? '').trim()}' hook claude-session-start`;
  const direct = measure(dir, PATH, cli);
  console.log(
    `${kind.padEnd(15)} named outright ${direct.ms.toFixed(1).padStart(6)} ms  pins ${direct.pinned ? 'yes' : 'NO '}`,
  );
  const as = measure(dir, PATH);
  console.log(
    `${kind.padEnd(15)} installed     ${as.ms.toFixed(1).padStart(7)} ms  pins ${as.pinned ? 'yes' : 'NO '}  ${as.reached}`,
  );
  git('config', '--unset-all', 'handoff.node');
  spawnSync('git', ['config', '--unset-all', 'handoff.bin'], { cwd: dir, env: base });
  const fresh = measure(dir, PATH);
  console.log(
    `${kind.padEnd(15)} no record     ${fresh.ms.toFixed(1).padStart(7)} ms  pins ${fresh.pinned ? 'yes' : 'NO '}  ${fresh.reached}`,
  );
}

console.log(`node ${process.version}, ${runs} runs each, median wall time of sh -c <SessionStart command>`);

// A global install: npm's prefix bin holds `handoff`; node is on the user's PATH.
{
  const prefix = path.join(scratch, 'global');
  execFileSync('npm', ['install', '-g', '--prefix', prefix, tarball], { env: npmEnv, stdio: 'ignore' });
  const r = repo('global-repo');
  const handoff = (...args) =>
    execFileSync(path.join(prefix, 'bin/handoff'), args, {
      cwd: r.dir,
      env: { ...base, PATH: `${nodeOnly}:${tools}` },
      stdio: 'ignore',
    });
  handoff('init');
  handoff('pin', PIN);
  handoff('agent', 'install', 'claude');
  report('global', r.dir, `${tools}:${nodeOnly}:${path.join(prefix, 'bin')}`, r.git);
}

// A project devDependency: node_modules/.bin/handoff, untracked; node on PATH.
{
  const r = repo('dev-repo');
  writeFileSync(path.join(r.dir, 'package.json'), '{"name":"bench-project","private":true}\n');
  execFileSync('npm', ['install', '--save-dev', tarball], { cwd: r.dir, env: npmEnv, stdio: 'ignore' });
  const handoff = (...args) =>
    execFileSync(path.join(r.dir, 'node_modules/.bin/handoff'), args, {
      cwd: r.dir,
      env: { ...base, PATH: `${nodeOnly}:${tools}` },
      stdio: 'ignore',
    });
  handoff('init');
  handoff('pin', PIN);
  handoff('agent', 'install', 'claude');
  report('devDependency', r.dir, `${tools}:${nodeOnly}`, r.git);
}

// npx: the package lives in npx's cache; the agent's PATH has no node at all.
{
  const r = repo('npx-repo');
  const npx = (...args) =>
    execFileSync('npx', ['--yes', '--package', tarball, 'handoff', ...args], {
      cwd: r.dir,
      env: npmEnv,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
  npx('init');
  npx('pin', PIN);
  npx('agent', 'install', 'claude');
  report('npx', r.dir, tools, r.git);
}

rmSync(scratch, { recursive: true, force: true });
