// `git handoff`: init adds a repository-local alias, so a project install works as a git
// command without node_modules/.bin on PATH; `git handoff -h` and `git handoff help` reach
// the CLI (git takes --help itself).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, tempDir } from './helpers.js';
import { aliasCommand } from '../src/git-hooks/hook-script.js';

const BIN = path.resolve(__dirname, '../bin/handoff.js');

/** A `handoff` launcher as an install would leave one. */
function launcher(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'handoff'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
}

function git(cwd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('git', args, { cwd, env: gitEnv(env), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('git handoff', () => {
  it('runs through the alias init adds, from a subdirectory, with -h and help', () => {
    const repo = makeRepo();
    const init = repo.handoff(['init']);
    expect(init.stdout).toContain("Added the alias handoff in the local git config: 'git handoff' works here");
    expect(repo.handoff(['init']).stdout).toBe('.handoff is already initialized; nothing changed.\n');
    repo.write('src/a.ts', 'a\n');
    expect(repo.handoff(['new', 'ship it']).code).toBe(0);
    const bin = path.join(tempDir(), 'bin');
    launcher(bin);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const sub = path.join(repo.dir, 'src');
    const listed = git(sub, ['handoff', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).handoffs[0].goal).toBe('ship it');
    const help = git(sub, ['handoff', '-h'], env);
    expect(help.stdout).toContain('handoff <command> [options]');
    expect(help.stdout).toContain('git handoff -h');
    expect(git(sub, ['handoff', 'help', 'list'], env).stdout).toContain('--status');
  });

  it('runs the CLI init ran from when it is in no package folder, as the hooks do', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    // Nothing on PATH and no project install: the source checkout init ran from is recorded.
    const r = git(repo.dir, ['handoff', '--version'], { PATH: '/usr/bin:/bin' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^handoff \d+\.\d+\.\d+/);
  });

  it('finds a project install in an ignored node_modules/.bin, never one git does not ignore', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    // The alias a project install gets (nothing recorded: it is found at run time).
    repo.git('config', 'alias.handoff', aliasCommand());
    launcher(path.join(repo.dir, 'node_modules/.bin'));
    const env = { PATH: '/usr/bin:/bin' };
    // Not ignored: a checkout or a pull could have put it there, so it is not run.
    const tracked = git(repo.dir, ['handoff', '--version'], env);
    expect(tracked.code).toBe(1);
    expect(tracked.stderr).toContain('handoff: the handoff CLI was not found');
    repo.write('.gitignore', 'node_modules/\n');
    const ignored = git(repo.dir, ['handoff', '--version'], env);
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(ignored.stdout).toMatch(/^handoff \d+\.\d+\.\d+/);
  });

  it("leaves a user's own alias alone", () => {
    const repo = makeRepo();
    repo.git('config', 'alias.handoff', '!echo mine');
    expect(repo.handoff(['init']).stdout).not.toContain('alias');
    expect(repo.git('config', '--get', 'alias.handoff')).toBe('!echo mine\n');
  });
});
