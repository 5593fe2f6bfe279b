// Real git in temporary repositories, and the built CLI run as a subprocess.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  mkdirSync,
  rmSync,
  writeFileSync,
  readFileSync,
  readdirSync,
  realpathSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { datedFolder } from '../src/store/id.js';
import { unpackShard } from '../src/store/cache-unpack.js';
import type { CachedItem } from '../src/store/tree.js';
import { afterEach, expect } from 'vitest';

export const BIN = path.resolve(__dirname, '../bin/handoff.js');
/** Transcript fixtures inside the repository (provenance in SOURCES.md and RECORDED.md). */
export const TRANSCRIPTS = path.resolve(__dirname, 'fixtures/transcripts');

/** An environment with a fixed identity and nothing from the user's own git config. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && !k.startsWith('HANDOFF_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Author',
    GIT_COMMITTER_EMAIL: 'author@example.com',
    GIT_EDITOR: ':',
    ...extra,
  };
}

const made: string[] = [];
afterEach(() => {
  while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
});

export function tempDir(prefix = 'handoff-test-'): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export interface Repo {
  dir: string;
  git: (...args: string[]) => string;
  write: (file: string, content: string) => void;
  read: (file: string) => string;
  commit: (message: string, files?: Record<string, string>) => string;
  handoff: (args: string[], options?: RunOptions) => RunResult;
  files: (sub: string) => string[];
}

export interface RunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  cwd?: string;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A program run to its end without blocking this process (spawnSync would stop a server the
 * test runs here from answering it), its standard input empty.
 */
export function runAsync(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

export function runHandoff(cwd: string, args: string[], options: RunOptions = {}): RunResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? cwd,
    env: gitEnv(options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A repository with one commit on `main`, a fixed identity and no signing. */
export function makeRepo(options: { name?: string; empty?: boolean } = {}): Repo {
  const dir = path.join(tempDir(), options.name ?? 'repo');
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test Author');
  git('config', 'user.email', 'author@example.com');
  git('config', 'commit.gpgSign', 'false');
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  const commit = (message: string, files: Record<string, string> = {}) => {
    for (const [f, c] of Object.entries(files)) write(f, c);
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD').trim();
  };
  if (!options.empty) commit('initial', { 'README.md': '# project\n' });
  return {
    dir,
    git,
    write,
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    commit,
    handoff: (args, opts) => runHandoff(dir, args, opts),
    files: (sub) => listFiles(path.join(dir, sub)),
  };
}

/** Replaces ids, hashes and times so outputs can be compared. */
export function normalise(text: string): string {
  return text
    .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, '<id>')
    .replace(/\b[0-9a-f]{40}\b/g, '<sha>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
}

/**
 * The entries of a folder, names not starting with `.`, sorted; handoffs' dated folders
 * (`YYYY-MM/DD/`) are looked into, so a handoff is `YYYY-MM/DD/<id>.md` under .handoff/handoffs.
 * With `dots`, temp files (`.name.tmp`) are listed too.
 */
export function listFiles(folder: string, { dots = false } = {}): string[] {
  const DATED = /^\d{4}-\d{2}$/;
  try {
    return readdirSync(folder)
      .filter((n) => dots || !n.startsWith('.'))
      .flatMap((n) =>
        DATED.test(n)
          ? readdirSync(path.join(folder, n)).flatMap((d) =>
              readdirSync(path.join(folder, n, d))
                .filter((f) => dots || !f.startsWith('.'))
                .map((f) => `${n}/${d}/${f}`),
            )
          : [n],
      )
      .sort();
  } catch {
    return [];
  }
}

/** Where `handoff new` writes the handoff with this id. */
export const handoffFile = (id: string) => `.handoff/handoffs/${datedFolder(id)}/${id}.md`;

/** The parse cache's files in a repository's git directory (one per .handoff/ folder). */
export function itemFiles(dir: string): string[] {
  const items = path.join(dir, '.git', 'handoff-items');
  try {
    return readdirSync(items).map((n) => path.join(items, n));
  } catch {
    return [];
  }
}

/** Every entry in the parse cache, by key, as the cache reads it back (store/cache-pack.ts). */
export const itemEntries = (dir: string): Map<string, CachedItem> =>
  new Map(
    itemFiles(dir).flatMap((f) => {
      const shard = unpackShard(JSON.parse(readFileSync(f, 'utf8')));
      return [...shard.keys()].map((key): [string, CachedItem] => [key, shard.item(key)!]);
    }),
  );

/** Every key in the parse cache. */
export const itemKeys = (dir: string): string[] => [...itemEntries(dir).keys()];

/**
 * Points the installed pre-commit hook's node at a wrapper that logs each start and runs
 * the same node: the proof of whether the hook started node. Returns the count so far.
 */
export function countNodeStarts(repo: Repo): () => number {
  const hook = path.join(repo.dir, '.git/hooks/pre-commit');
  const log = path.join(path.dirname(repo.dir), 'node-starts.log');
  const wrapper = path.join(path.dirname(repo.dir), 'node-wrapper');
  writeFileSync(log, '');
  writeFileSync(wrapper, `#!/bin/sh\necho started >>'${log}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const quoted = `'${process.execPath}'`;
  const text = readFileSync(hook, 'utf8');
  expect(text).toContain(quoted);
  writeFileSync(hook, text.split(quoted).join(`'${wrapper}'`));
  return () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
}
