#!/usr/bin/env node
// @ts-check
// What a user pays to get handoff: the packed tarball installed into an empty project
// with its runtime dependencies only: its size on disk and in bytes, and the install's
// time; then a cold `npx handoff check` from the same tarball (npx's own install
// included) in a repository with .handoff/.
// Offline, from npm's cache (which `npm ci` fills), so the figures are npm's and the
// disk's work, not the network's. npm's cache holds the dependencies' tarballs but not the
// registry's metadata about them, so the project is installed from a lockfile made of this
// checkout's (`npm ci --offline --omit=dev`: the versions this checkout is tested with), and
// npx, which resolves the tarball's ranges itself, is measured only where that metadata is
// cached (a machine that once installed them from the registry); elsewhere it says so.
// npx is cold each round: it gets a cache directory of its own whose package store is
// npm's (a symbolic link), so nothing it already unpacked is reused.
//
//   npm run build && node bench/install.js [--rounds 5] [--tarball other.tgz ...]
// --tarball adds a packed build to compare (e.g. one packed from an older commit).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

  /**
   * A project that depends on `tarball`, with a lockfile of this checkout's runtime
   * dependencies (resolved and integrity as npm ci recorded them), so `npm ci --offline`
   * installs it from npm's cache alone.
   */
  const projectFor = (dir, tarball) => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    const spec = `file:${tarball}`;
    const packages = {
      '': { name: 'p', version: '1.0.0', dependencies: { [pkg.name]: spec } },
      [`node_modules/${pkg.name}`]: {
        version: pkg.version,
        resolved: spec,
        license: pkg.license,
        dependencies: pkg.dependencies,
        peerDependencies: pkg.peerDependencies,
        peerDependenciesMeta: pkg.peerDependenciesMeta,
        bin: pkg.bin,
        engines: pkg.engines,
      },
    };
    for (const [key, entry] of Object.entries(lock.packages))
      if (key.startsWith('node_modules/') && !entry.dev && !entry.devOptional) packages[key] = entry;
    const project = { name: 'p', version: '1.0.0', private: true, dependencies: { [pkg.name]: spec } };
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(project)}\n`);
    writeFileSync(
      path.join(dir, 'package-lock.json'),
      `${JSON.stringify({ name: 'p', version: '1.0.0', lockfileVersion: 3, requires: true, packages })}\n`,
    );
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
    const firsts = [];
    const npxs = [];
    let npxSkipped = false;
    let measured = [0, 0];
    for (let i = 0; i < rounds; i++) {
      const project = mkdtempSync(path.join(scratch, 'project-'));
      projectFor(project, tarball);
      let t = performance.now();
      const r = npm(['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund', '--silent'], project);
      installs.push(performance.now() - t);
      if (r.status !== 0) throw new Error(`npm ci of ${tarball} failed:\n${r.stderr}`);
      measured = size(path.join(project, 'node_modules'));
      t = performance.now();
      const first = spawnSync(path.join(project, 'node_modules/.bin/handoff'), ['check'], { cwd: repo, env: gitEnv });
      firsts.push(performance.now() - t);
      if (first.status !== 0) throw new Error(`handoff check from the install failed:\n${first.stderr}`);
      rmSync(project, { recursive: true, force: true });

      if (npxSkipped) continue;
      const cache = mkdtempSync(path.join(scratch, 'npx-cache-'));
      symlinkSync(path.join(npmCache, '_cacache'), path.join(cache, '_cacache'));
      t = performance.now();
      const x = spawnSync('npx', ['--offline', '--yes', '--package', tarball, 'handoff', 'check'], {
        cwd: repo,
        env: { ...gitEnv, npm_config_cache: cache, npm_config_update_notifier: 'false' },
        encoding: 'utf8',
      });
      npxs.push(performance.now() - t);
      rmSync(cache, { recursive: true, force: true });
      if (x.status !== 0 && x.stderr.includes('ENOTCACHED')) npxSkipped = true;
      else if (x.status !== 0) throw new Error(`npx handoff check failed:\n${x.stderr}`);
    }
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `${label}: installed ${mb(measured[1])} on disk (${mb(measured[0])} of files); ` +
        `npm ci --omit=dev ${(median(installs) / 1000).toFixed(2)} s; first handoff check ${(median(firsts) / 1000).toFixed(2)} s; ` +
        (npxSkipped
          ? 'cold npx handoff check not measured (npm cache has no registry metadata for the dependencies)'
          : `cold npx handoff check ${(median(npxs) / 1000).toFixed(2)} s`),
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
