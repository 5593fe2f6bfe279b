#!/usr/bin/env node
// @ts-check
// What a user pays to get handoff: the packed tarball installed into an empty project
// with its runtime dependencies only (`npm install --omit=dev <tarball>`): its size on
// disk and in bytes, and the install's time; then a cold `npx handoff check` from the same
// tarball (npx's own install included) in a repository with .handoff/.
// Offline, from npm's cache (which `npm ci` fills), so the figures are npm's and the
// disk's work, not the network's. npx is cold each round: it gets a cache directory of its
// own whose package store is npm's (a symbolic link), so nothing it already unpacked is reused.
//
//   npm run build && node bench/install.js [--rounds 5] [--tarball other.tgz ...]
// --tarball adds a packed build to compare (e.g. one packed from an older commit).
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    tarball: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('node bench/install.js [--rounds N] [--tarball FILE ...]   (5 rounds for the report)');
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handoff-install-bench-'));
const npm = (args, cwd, env = process.env) => spawnSync('npm', args, { cwd, env, encoding: 'utf8' });

try {
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const tarballs = [['this checkout', path.join(scratch, packed)], ...values.tarball.map((t) => [t, path.resolve(t)])];
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const rounds = Math.max(1, Number(values.rounds));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  /** Bytes of the files, and bytes the disk allocates for them. */
  const size = (dir) => {
    let bytes = 0;
    let disk = 0;
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      const st = lstatSync(file);
      disk += st.blocks * 512;
      if (st.isDirectory()) {
        const [b, d] = size(file);
        bytes += b;
        disk += d;
      } else bytes += st.size;
    }
    return [bytes, disk];
  };

  // A repository for `handoff check`, set up once with this checkout's build.
  const repo = path.join(scratch, 'repo');
  mkdirSync(repo);
  const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args) => execFileSync('git', args, { cwd: repo, env: gitEnv });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'init');
  execFileSync(process.execPath, [path.join(root, 'bin/handoff.js'), 'init'], { cwd: repo, env: gitEnv });
  git('add', '-A');
  git('-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'handoff');

  console.log(`node ${process.version}, npm ${npm(['--version'], root).stdout.trim()}, median of ${rounds} rounds`);
  for (const [label, tarball] of tarballs) {
    const installs = [];
    const npxs = [];
    let measured = [0, 0];
    for (let i = 0; i < rounds; i++) {
      const project = mkdtempSync(path.join(scratch, 'project-'));
      writeFileSync(path.join(project, 'package.json'), '{"name":"p","version":"1.0.0","private":true}\n');
      let t = performance.now();
      const r = npm(['install', '--offline', '--omit=dev', '--no-audit', '--no-fund', '--silent', tarball], project);
      installs.push(performance.now() - t);
      if (r.status !== 0) throw new Error(`npm install ${tarball} failed:\n${r.stderr}`);
      measured = size(path.join(project, 'node_modules'));
      rmSync(project, { recursive: true, force: true });

      const cache = mkdtempSync(path.join(scratch, 'npx-cache-'));
      symlinkSync(path.join(npmCache, '_cacache'), path.join(cache, '_cacache'));
      t = performance.now();
      const x = spawnSync('npx', ['--offline', '--yes', '--package', tarball, 'handoff', 'check'], {
        cwd: repo,
        env: { ...gitEnv, npm_config_cache: cache, npm_config_update_notifier: 'false' },
        encoding: 'utf8',
      });
      npxs.push(performance.now() - t);
      if (x.status !== 0) throw new Error(`npx handoff check failed:\n${x.stderr}`);
      rmSync(cache, { recursive: true, force: true });
    }
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `${label}: installed ${mb(measured[1])} on disk (${mb(measured[0])} of files); ` +
        `npm install --omit=dev ${(median(installs) / 1000).toFixed(2)} s; cold npx handoff check ${(median(npxs) / 1000).toFixed(2)} s`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
