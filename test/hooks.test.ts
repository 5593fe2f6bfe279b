// The git hooks: install/uninstall/status where hooks live, and what they do on commit.
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countNodeStarts, gitEnv, makeRepo, runHandoff, tempDir, type Repo } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';
import { execFileSync, spawnSync } from 'node:child_process';

/** git with the hooks' view of the world; returns code and output instead of throwing. */
function gitRun(repo: Repo, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('git', args, { cwd: repo.dir, env: gitEnv(env), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function initWithHooks(repo: Repo) {
  const r = repo.handoff(['init', '--hooks']);
  expect(r.code).toBe(0);
  repo.commit('set up handoff');
}

const roadmapAt = (repo: Repo, rev: string) => repo.git('show', `${rev}:.handoff/ROADMAP.md`);

describe('handoff hooks install / uninstall', () => {
  it('chains an existing shell hook and removes exactly what it added', () => {
    const repo = makeRepo();
    const own = '#!/bin/bash\n# my own checks\necho "user hook ran" >&2\nexit 0\n';
    const hook = path.join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(hook, own);
    chmodSync(hook, 0o755);
    const install = repo.handoff(['hooks', 'install']);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain('pre-commit: added to your existing hook');
    expect(install.stdout).toContain('post-merge: installed');
    const installed = readFileSync(hook, 'utf8');
    expect(installed.startsWith('#!/bin/bash\n# >>> handoff >>>')).toBe(true);
    expect(installed.endsWith('# my own checks\necho "user hook ran" >&2\nexit 0\n')).toBe(true);

    const again = repo.handoff(['hooks', 'install']);
    expect(again.stdout).toContain('pre-commit: already installed; unchanged');
    expect(readFileSync(hook, 'utf8')).toBe(installed);

    // The user's hook still runs (after ours), on a commit that touches nothing of ours.
    repo.write('a.txt', 'a\n');
    repo.git('add', 'a.txt');
    const commit = gitRun(repo, ['commit', '-q', '-m', 'a']);
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe('user hook ran\n');

    const status = JSON.parse(repo.handoff(['hooks', 'status', '--json']).stdout);
    expect(status.hooks.map((h: { installed: boolean; current: boolean }) => h.installed && h.current)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(status.merge_driver.configured).toBe(true);
    expect(status.dir).toBe('.git/hooks');

    const uninstall = repo.handoff(['hooks', 'uninstall']);
    expect(uninstall.code).toBe(0);
    // The file stays: what was removed is our block, and the user's hook is as it was.
    expect(uninstall.stdout).toContain(
      'pre-commit: removed; your own hook is back in place (.git/hooks/pre-commit)\npost-merge: removed (.git/hooks/post-merge)\n',
    );
    expect(uninstall.stdout).toContain('The roadmap merge driver stays registered');
    expect(readFileSync(hook, 'utf8')).toBe(own);
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    expect(existsSync(path.join(repo.dir, '.git/hooks/post-merge'))).toBe(false);
    // The driver is not a hook: merges of the roadmap still need it.
    expect(gitRun(repo, ['config', '--get', 'merge.handoff-roadmap.driver']).code).toBe(0);
    expect(repo.handoff(['hooks', 'status']).stdout).toContain('pre-commit: not installed');
  });

  it("gives a user's hook its own mode back on uninstall", () => {
    const repo = makeRepo();
    const own = '#!/bin/sh\necho "kept aside" >&2\n';
    const hook = path.join(repo.dir, '.git/hooks/post-checkout');
    writeFileSync(hook, own);
    chmodSync(hook, 0o640);
    expect(repo.handoff(['hooks', 'install']).stdout).toContain('post-checkout: added to your existing hook');
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    expect(repo.handoff(['hooks', 'uninstall']).code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe(own);
    expect(statSync(hook).mode & 0o777).toBe(0o640);
    expect(existsSync(path.join(repo.dir, '.git/handoff-hook-modes.json'))).toBe(false);
  });

  it('wraps a non-shell hook and puts it back byte for byte', () => {
    const repo = makeRepo();
    const hook = path.join(repo.dir, '.git/hooks/pre-commit');
    const python = '#!/usr/bin/env python3\nimport sys\nsys.stderr.write("python hook ran\\n")\n';
    writeFileSync(hook, python);
    chmodSync(hook, 0o750);
    const install = repo.handoff(['hooks', 'install']);
    expect(install.stdout).toContain('pre-commit: installed; your non-shell hook runs after it');
    expect(readFileSync(`${hook}.handoff-chained`, 'utf8')).toBe(python);
    const hasPython = spawnSync('python3', ['--version']).status === 0;
    if (hasPython) {
      repo.write('a.txt', 'a\n');
      repo.git('add', 'a.txt');
      expect(gitRun(repo, ['commit', '-q', '-m', 'a']).stderr).toBe('python hook ran\n');
    }
    repo.handoff(['hooks', 'uninstall']);
    expect(readFileSync(hook, 'utf8')).toBe(python);
    expect(statSync(hook).mode & 0o777).toBe(0o750);
    expect(existsSync(`${hook}.handoff-chained`)).toBe(false);
  });

  it("appends to husky's user scripts, not its regenerated _ directory", () => {
    const repo = makeRepo();
    repo.write('.husky/_/pre-commit', '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n');
    repo.write(
      '.husky/_/h',
      '#!/usr/bin/env sh\nn=$(basename "$0"); s=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n',
    );
    for (const f of ['.husky/_/pre-commit', '.husky/_/h']) chmodSync(path.join(repo.dir, f), 0o755);
    repo.write('.husky/pre-commit', 'echo "husky user script" >&2\n');
    repo.git('config', 'core.hooksPath', '.husky/_');
    const install = repo.handoff(['hooks', 'install']);
    expect(install.code).toBe(0);
    expect(install.stderr).toContain('husky keeps hooks in the repository');
    const script = repo.read('.husky/pre-commit');
    expect(script.startsWith('echo "husky user script" >&2\n# >>> handoff >>>')).toBe(true);
    // No machine paths in a file the team commits.
    expect(script).not.toContain(process.execPath);
    expect(repo.read('.husky/_/pre-commit')).not.toContain('handoff');
    // husky runs the script; with no handoff on PATH the block warns and the commit goes through.
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    const noHandoff = (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((d) => !existsSync(path.join(d, 'handoff')))
      .join(path.delimiter);
    const commit = gitRun(repo, ['commit', '-q', '-m', 'with husky'], { PATH: noHandoff });
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe(
      'husky user script\nhandoff: warning: the handoff CLI was not found; skipped (reinstall: handoff hooks install)\n',
    );
    repo.handoff(['hooks', 'uninstall']);
    expect(repo.read('.husky/pre-commit')).toBe('echo "husky user script" >&2\n');
    expect(existsSync(path.join(repo.dir, '.husky/post-merge'))).toBe(false);
  });

  it('init routes the roadmap to the merge driver once, however often it runs', () => {
    const repo = makeRepo();
    const first = repo.handoff(['init']);
    expect(first.stdout).toContain("Added '/ROADMAP.md merge=union' to .handoff/.gitattributes");
    expect(first.stdout).toContain('Registered the merge driver in this clone');
    const second = repo.handoff(['init']);
    expect(second.stdout).toBe('.handoff is already initialized; nothing changed.\n');
    expect(repo.read('.handoff/.gitattributes')).toBe(
      '/ROADMAP.md merge=union\n/handoffs/*.md merge=handoff-roadmap\n/handoffs/*/*/*.md merge=handoff-roadmap\n/pins/*.md merge=handoff-roadmap\n',
    );
    // This clone routes the roadmap to the driver; the committed line is git's union merge.
    expect(repo.read('.git/info/attributes')).toContain('/.handoff/ROADMAP.md merge=handoff-roadmap\n');
    for (const file of ['.handoff/handoffs/x.md', '.handoff/handoffs/2026-11/24/x.md'])
      expect(repo.git('check-attr', 'merge', '--', file)).toBe(`${file}: merge: handoff-roadmap\n`);
    expect(repo.git('check-attr', 'merge', '--', '.handoff/ROADMAP.md')).toBe(
      '.handoff/ROADMAP.md: merge: handoff-roadmap\n',
    );
    expect(repo.git('check-attr', 'merge', '--', '.handoff/pins/x.md')).toBe(
      '.handoff/pins/x.md: merge: handoff-roadmap\n',
    );
    // "Nothing changed" only when nothing did: a driver registered again is said, then summed up.
    repo.git('config', '--local', '--remove-section', 'merge.handoff-roadmap');
    const third = repo.handoff(['init']);
    expect(third.stdout).toBe(
      'Registered the merge driver in this clone (merge.handoff-roadmap in the local git config, the roadmap routed to it in .git/info/attributes).\n.handoff is already initialized; git is set up as above.\n',
    );
    // The line earlier versions committed is replaced, not doubled.
    repo.write('.handoff/.gitattributes', '/ROADMAP.md merge=handoff-roadmap\n/handoffs/*.md merge=handoff-roadmap\n');
    repo.handoff(['init']);
    expect(repo.read('.handoff/.gitattributes')).toBe(
      '/ROADMAP.md merge=union\n/handoffs/*.md merge=handoff-roadmap\n/handoffs/*/*/*.md merge=handoff-roadmap\n/pins/*.md merge=handoff-roadmap\n',
    );
  });

  it('a clone that never ran init merges two branches that both added handoffs without a conflict', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    // A fresh clone: no local config, no info/attributes.
    const clone = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', repo.dir, clone], { env: gitEnv() });
    const at = (...args: string[]) => execFileSync('git', args, { cwd: clone, env: gitEnv(), encoding: 'utf8' });
    at('config', 'user.name', 'Other');
    at('config', 'user.email', 'other@example.com');
    expect(
      existsSync(path.join(clone, '.git/info/attributes'))
        ? readFileSync(path.join(clone, '.git/info/attributes'), 'utf8')
        : '',
    ).not.toContain('handoff');
    for (const branch of ['one', 'two']) {
      at('checkout', '-q', '-b', branch, 'main');
      writeFileSync(path.join(clone, `${branch}.txt`), `${branch}\n`);
      expect(runHandoff(clone, ['new', `work on ${branch}`]).code).toBe(0);
      expect(runHandoff(clone, ['roadmap']).code).toBe(0);
      at('add', '-A');
      at('commit', '-q', '-m', branch);
    }
    at('checkout', '-q', 'one');
    const merged = spawnSync('git', ['merge', '--no-edit', 'two'], { cwd: clone, env: gitEnv(), encoding: 'utf8' });
    expect(merged.status, merged.stdout + merged.stderr).toBe(0);
    expect(readFileSync(path.join(clone, '.handoff/ROADMAP.md'), 'utf8')).not.toContain('<<<<<<<');
    // The next write regenerates it, and check is then satisfied.
    expect(runHandoff(clone, ['roadmap']).code).toBe(0);
    expect(runHandoff(clone, ['check']).code).toBe(0);
  });

  it('records no path into a package folder for the hooks and the merge driver', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const driver = repo.git('config', '--get', 'merge.handoff-roadmap.driver');
    // From a source checkout the CLI is recorded; when it is gone (or from a package) it is found at run time.
    expect(driver).toContain('command -v handoff');
    expect(driver).toContain('git check-ignore -q node_modules/.bin/handoff');
    expect(driver).toContain('git merge-file');
  });

  it('new and pin in a repository init has not set up write, and say once why init matters', () => {
    const repo = makeRepo();
    const pinned = repo.handoff(['pin', 'use tabs']);
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toBe(
      "handoff: hint: run 'handoff init' once in this repository: it registers the merge driver, so merges of the roadmap and of handoffs do not conflict\n",
    );
    expect(repo.handoff(['new', 'work']).stderr).toContain("hint: run 'handoff init'");
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['pin', 'use spaces']).stderr).toBe('');
    expect(repo.handoff(['new', 'more work']).stderr).not.toContain('hint');
  });

  it('writes no machine paths into a committed core.hooksPath directory', () => {
    const repo = makeRepo();
    repo.git('config', 'core.hooksPath', '.githooks');
    expect(repo.handoff(['hooks', 'install']).code).toBe(0);
    const script = repo.read('.githooks/pre-commit');
    expect(script).toContain('# >>> handoff >>>');
    expect(script).not.toContain(process.execPath);
    expect(JSON.parse(repo.handoff(['hooks', 'status', '--json']).stdout).hooks[0].current).toBe(true);
  });

  it('installs into the common git dir from a linked worktree', () => {
    const repo = makeRepo();
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'side', linked);
    const r = repo.handoff(['hooks', 'install'], { cwd: linked });
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8')).toContain('# >>> handoff >>>');
  });

  it('refuses a bare repository with a clear message', () => {
    const repo = makeRepo();
    const bare = path.join(path.dirname(repo.dir), 'bare.git');
    execFileSync('git', ['clone', '-q', '--bare', repo.dir, bare], { env: gitEnv() });
    const r = repo.handoff(['hooks', 'install'], { cwd: bare });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^handoff: not inside a git work tree/);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('the installed hooks', () => {
  it('regenerate and stage the roadmap on commit -a, commit -- path and --amend', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    expect(roadmapAt(repo, 'HEAD')).toContain('No open handoffs');

    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'staged with add' }));
    repo.git('add', '-A');
    const plain = gitRun(repo, ['commit', '-q', '-m', 'one']);
    expect(plain.stderr).toBe('handoff: regenerated .handoff/ROADMAP.md and staged it\n');
    expect(roadmapAt(repo, 'HEAD')).toContain('#### staged with add');

    // commit -a: git gives the hook a temporary index in GIT_INDEX_FILE.
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'changed for commit -a' }));
    expect(gitRun(repo, ['commit', '-q', '-a', '-m', 'two']).code).toBe(0);
    expect(roadmapAt(repo, 'HEAD')).toContain('#### changed for commit -a');
    expect(repo.git('status', '--porcelain')).toBe('');

    // commit -- path: another temporary index.
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'changed for commit -- path' }));
    repo.write('unrelated.txt', 'not committed\n');
    const only = gitRun(repo, ['commit', '-q', '-m', 'three', '--', handoffPath(id(1))]);
    expect(only.code).toBe(0);
    expect(roadmapAt(repo, 'HEAD')).toContain('#### changed for commit -- path');
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([
      '.handoff/ROADMAP.md',
      handoffPath(id(1)),
    ]);
    // git's own index got the new roadmap too: nothing left staged or modified but the file not named.
    expect(repo.git('status', '--porcelain')).toBe('?? unrelated.txt\n');

    // --amend
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'amended' }));
    repo.git('add', handoffPath(id(1)));
    expect(gitRun(repo, ['commit', '-q', '--amend', '-m', 'three, amended']).code).toBe(0);
    expect(roadmapAt(repo, 'HEAD')).toContain('#### amended');
    expect(repo.handoff(['check']).code).toBe(0);
  });

  it('leave commits that do not touch .handoff/ alone', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    // A broken handoff already committed (bypassing the hook): node would warn about it if it ran.
    repo.write(handoffPath(id(1)), '---\nid: broken\n---\n');
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '--no-verify', '-m', 'broken']).code).toBe(0);
    repo.write('src/app.ts', 'export {};\n');
    repo.git('add', '-A');
    const r = gitRun(repo, ['commit', '-q', '-m', 'code only']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('stop a commit with an invalid staged handoff, and HANDOFF_SKIP=1 lets it through', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }).replace('status: "open"', 'status: "halfway"'));
    repo.git('add', '-A');
    const r = gitRun(repo, ['commit', '-q', '-m', 'bad']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `handoff: ${handoffPath(id(1))}: front-matter 'status' must be one of open, done, superseded`,
    );
    expect(r.stderr).toContain('HANDOFF_SKIP=1');
    expect(gitRun(repo, ['rev-list', '--count', 'HEAD']).stdout.trim()).toBe('2');
    const skipped = gitRun(repo, ['commit', '-q', '-m', 'bad'], { HANDOFF_SKIP: '1' });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toBe('');
  });

  it('fail open on their own errors', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    // The roadmap path is a directory: writing it fails inside the hook.
    repo.write('.handoff/config.yml', 'roadmap: docs/ROADMAP.md\n');
    repo.write('docs/ROADMAP.md/keep', 'x\n');
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    const r = gitRun(repo, ['commit', '-q', '-m', 'still commits']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^handoff: warning: the pre-commit hook failed \(.*\); carrying on without it/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refresh the roadmap after checkout, but not in the middle of a rebase', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'feature work', branch: 'feature' }));
    repo.git('add', '-A');
    gitRun(repo, ['commit', '-q', '--no-verify', '-m', 'no roadmap update']);
    gitRun(repo, ['checkout', '-q', 'main']);
    const back = gitRun(repo, ['checkout', '-q', 'feature']);
    expect(back.stderr).toBe('handoff: refreshed .handoff/ROADMAP.md in the working tree\n');
    expect(repo.read('.handoff/ROADMAP.md')).toContain('#### feature work');
    repo.git('checkout', '-q', '--', '.handoff/ROADMAP.md');

    // Stop a rebase at its first commit; the refresh must leave the tree alone.
    const stop = gitRun(repo, ['rebase', '-q', '-i', 'main'], { GIT_SEQUENCE_EDITOR: 'sed -i s/^pick/edit/' });
    expect(stop.code).toBe(0);
    expect(existsSync(path.join(repo.dir, '.git/rebase-merge'))).toBe(true);
    const during = repo.handoff(['git-hook', 'refresh']);
    expect(during.code).toBe(0);
    expect(during.stderr).toBe('');
    expect(repo.read('.handoff/ROADMAP.md')).not.toContain('feature work');
    gitRun(repo, ['rebase', '--abort']);
  });
});

const newHandoff = (repo: Repo, goal: string): string => {
  const r = repo.handoff(['new', goal, '--no-edit']);
  expect(r.code).toBe(0);
  return r.stdout.trim().split('\n').pop()!.replace(/^.* /, '');
};

const record = (repo: Repo) => path.join(repo.dir, '.git/handoff-validated');

describe('the pre-commit fast path', () => {
  it('skips node for the tree a writer validated, and the commit has a current roadmap', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    // Reinstalling the same version leaves the hook (with the version in it) as it is, and status calls it current.
    expect(repo.handoff(['hooks', 'install']).stdout).toContain('pre-commit: already installed; unchanged');
    expect(JSON.parse(repo.handoff(['hooks', 'status', '--json']).stdout).hooks[0]).toMatchObject({
      hook: 'pre-commit',
      installed: true,
      current: true,
    });
    const starts = countNodeStarts(repo);
    for (const goal of ['first goal', 'second goal']) {
      newHandoff(repo, goal);
      expect(repo.read('.handoff/ROADMAP.md')).toContain(`#### ${goal}`); // new refreshed it
      repo.git('add', '-A');
      const r = gitRun(repo, ['commit', '-q', '-m', goal]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(starts()).toBe(0);
      expect(roadmapAt(repo, 'HEAD')).toContain(`#### ${goal}`);
      expect(repo.handoff(['roadmap', '--check']).code).toBe(0);
      expect(repo.git('status', '--porcelain')).toBe('');
    }
    expect(readFileSync(record(repo), 'utf8').split('\n')[0]).toBe(
      `${JSON.parse(readFileSync(path.join(__dirname, '../package.json'), 'utf8')).version} ${repo.git('rev-parse', 'HEAD:.handoff').trim()}`,
    );
  });

  it('never skips a tree nobody validated: an edit after new, or a broken pin, is refused as before', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    const starts = countNodeStarts(repo);
    newHandoff(repo, 'to be broken');
    const [name] = repo.files('.handoff/handoffs');
    const file = `.handoff/handoffs/${name}`;
    const good = repo.read(file);
    repo.write(file, good.replace('status: "open"', 'status: "halfway"'));
    repo.git('add', '-A');
    const bad = gitRun(repo, ['commit', '-q', '-m', 'bad']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`handoff: ${file}: front-matter 'status' must be one of open, done, superseded`);
    expect(starts()).toBe(1);

    repo.write(file, good);
    repo.write('.handoff/pins/broken.md', '---\nid: broken\n---\n');
    repo.git('add', '-A');
    const pin = gitRun(repo, ['commit', '-q', '-m', 'bad pin']);
    expect(pin.code).toBe(1);
    expect(pin.stderr).toContain('handoff: .handoff/pins/broken.md');
    expect(starts()).toBe(2);
    expect(repo.git('rev-list', '--count', 'HEAD').trim()).toBe('2');
    // A writer that reads a broken file records nothing.
    rmSync(record(repo));
    newHandoff(repo, 'next to a broken pin');
    expect(existsSync(record(repo))).toBe(false);
  });

  it('runs node when only part of .handoff/ is staged, and then records what it validated', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    newHandoff(repo, 'parent');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'parent');
    const starts = countNodeStarts(repo);
    newHandoff(repo, 'child');
    const child = repo
      .git('status', '--porcelain', '--', '.handoff/handoffs')
      .split('\n')
      .find((l) => l.startsWith('??'))!
      .slice(3);
    repo.git('add', '--', child);
    const r = gitRun(repo, ['commit', '-q', '-m', 'child only']);
    expect(r).toMatchObject({ code: 0, stderr: 'handoff: regenerated .handoff/ROADMAP.md and staged it\n' });
    expect(starts()).toBe(1);
    expect(roadmapAt(repo, 'HEAD')).toContain('#### child');
    // The node path recorded the tree it validated: the same tree again skips node.
    repo.git('reset', '-q', '--soft', 'HEAD~1');
    expect(gitRun(repo, ['commit', '-q', '-m', 'child only, again'])).toMatchObject({ code: 0, stderr: '' });
    expect(starts()).toBe(1);
  });

  it('runs node for a record another version wrote, and records nothing for a roadmap outside .handoff/', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    const starts = countNodeStarts(repo);
    newHandoff(repo, 'other version');
    writeFileSync(record(repo), readFileSync(record(repo), 'utf8').replace(/^\S+ /, '0.0.0-other '));
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'other version'])).toMatchObject({ code: 0, stderr: '' });
    expect(starts()).toBe(1);

    repo.write('.handoff/config.yml', 'roadmap: ROADMAP.md\n');
    repo.handoff(['roadmap']);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'roadmap at the root']).code).toBe(0);
    expect(starts()).toBe(2);
    rmSync(record(repo), { force: true });
    newHandoff(repo, 'root roadmap');
    expect(existsSync(record(repo))).toBe(false);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'root roadmap']).code).toBe(0);
    expect(starts()).toBe(3);
    expect(repo.git('show', 'HEAD:ROADMAP.md')).toContain('#### root roadmap');
  });

  it('sweeps what a killed writer left in the git directory, and leaves what a running one holds', () => {
    const repo = makeRepo();
    initWithHooks(repo);
    const gitDir = path.join(repo.dir, '.git');
    const dead = [
      'handoff-validated.999999999.index',
      'handoff-validated.999999999.tmp',
      'handoff-cache.json.999999999.tmp',
    ];
    const live = `handoff-validated.${process.pid}.index`;
    for (const name of [...dead, live]) writeFileSync(path.join(gitDir, name), 'left behind');
    expect(repo.handoff(['pin', 'keep the public API stable']).code).toBe(0);
    const left = readdirSync(gitDir);
    for (const name of dead) expect(left).not.toContain(name);
    expect(left).toContain(live);
  });
});
