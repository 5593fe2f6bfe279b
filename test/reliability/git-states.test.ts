// Every command in the git states people actually end up in: each one works, or says in
// one line what it cannot do; none crashes.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, runHandoff, tempDir, type Repo } from '../helpers.js';

function works(cwd: string, expectNew: RegExp = /handoff: \d+ files? and \d+ commits? since/, pinToo = false) {
  const made = runHandoff(cwd, ['new', 'carry on', '--no-edit']);
  expect(made.stderr).not.toContain('internal error');
  expect(made.code).toBe(0);
  expect(made.stderr).toMatch(expectNew);
  const resume = runHandoff(cwd, ['resume', '--json']);
  expect(resume.code).toBe(0);
  const parts = JSON.parse(resume.stdout);
  expect(parts.goal).toBe('carry on');
  if (pinToo) expect(runHandoff(cwd, ['pin', `a rule for ${path.basename(cwd)}`]).code).toBe(0);
  return { made, parts };
}

function conflicted(repo: Repo): void {
  repo.git('checkout', '-q', '-b', 'topic');
  repo.commit('topic change', { 'a.txt': 'topic\n' });
  repo.git('checkout', '-q', 'main');
  repo.commit('main change', { 'a.txt': 'main\n' });
}

const fails = (fn: () => void) => {
  try {
    fn();
  } catch {
    // the git command stops with a conflict, as intended
  }
};

describe('git states', () => {
  it('detached HEAD: the handoff records no branch and resume finds it', () => {
    const repo = makeRepo();
    repo.commit('two');
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    const { made, parts } = works(repo.dir);
    expect(repo.read(made.stdout.trim())).toContain('branch: null');
    expect(parts.since.head_found).toBe(true);
  });

  it('unborn branch: no commits yet, staged files still listed', () => {
    const repo = makeRepo({ empty: true });
    repo.write('first.ts', 'x\n');
    repo.git('add', 'first.ts');
    const { made, parts } = works(repo.dir, /1 file and 0 commits since the start/, true);
    expect(repo.read(made.stdout.trim())).toContain('head: null');
    expect(parts.prompt).toContain('first.ts');
  });

  it('shallow clone: a handoff whose commit is not fetched says so', () => {
    const origin = makeRepo();
    for (const n of [1, 2, 3]) origin.commit(`c${n}`, { [`f${n}.ts`]: `${n}\n` });
    origin.handoff(['new', 'old work', '--no-edit']);
    const oldHead = origin.git('rev-parse', 'HEAD~2').trim();
    const file = origin.files('.handoff/handoffs')[0]!;
    origin.write(
      `.handoff/handoffs/${file}`,
      origin.read(`.handoff/handoffs/${file}`).replace(/head: "[0-9a-f]+"/, `head: "${oldHead}"`),
    );
    origin.commit('handoff');
    const clone = path.join(tempDir(), 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.dir}`, clone], { env: gitEnv() });
    const resume = runHandoff(clone, ['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('is not in this repository (rebased away, or not fetched)');
    works(clone);
  });

  it('sparse checkout: works, and lists only what changed inside the cone', () => {
    const repo = makeRepo();
    repo.commit('dirs', { 'd/x.ts': '1\n', 'e/y.ts': '2\n' });
    repo.git('sparse-checkout', 'set', 'd');
    repo.write('d/z.ts', '3\n');
    const { parts } = works(repo.dir, /1 file and 0 commits/);
    expect(parts.prompt).toContain('d/z.ts');
    expect(parts.prompt).not.toContain('e/y.ts');
  });

  it('linked worktree: its own .handoff/, its own branch', () => {
    const repo = makeRepo();
    const linked = path.join(tempDir(), 'linked tree');
    repo.git('worktree', 'add', '-q', linked, '-b', 'other');
    const { made } = works(linked, undefined, true);
    expect(made.stdout.trim()).toMatch(/^\.handoff\/handoffs\//);
    expect(execFileSync('git', ['-C', linked, 'status', '--porcelain'], { env: gitEnv(), encoding: 'utf8' })).toContain(
      '.handoff/',
    );
  });

  it('submodule: inside it, and a superproject with a changed submodule', () => {
    const sub = makeRepo({ name: 'sub' });
    const sup = makeRepo({ name: 'super' });
    sup.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sm');
    sup.commit('add submodule');
    works(path.join(sup.dir, 'sm'));
    sup.write('sm/README.md', '# changed\n');
    const { parts } = works(sup.dir, /1 file and 0 commits/);
    expect(parts.prompt).toContain('`sm`');
  });

  for (const [operation, start] of [
    ['merge', (r: Repo) => fails(() => r.git('merge', '-q', 'topic'))],
    ['rebase', (r: Repo) => (r.git('checkout', '-q', 'topic'), fails(() => r.git('rebase', '-q', 'main')))],
    ['cherry-pick', (r: Repo) => fails(() => r.git('cherry-pick', 'topic'))],
  ] as const) {
    it(`${operation} in progress: the handoff is written and the user is told`, () => {
      const repo = makeRepo();
      conflicted(repo);
      start(repo);
      const { made, parts } = works(repo.dir);
      expect(made.stderr).toContain(`handoff: note: a ${operation} is in progress`);
      expect(parts.prompt).toContain('a.txt');
    });
  }

  it('bare repository: a clear one-line error from every command', () => {
    const bare = path.join(tempDir(), 'bare.git');
    execFileSync('git', ['init', '-q', '--bare', bare], { env: gitEnv() });
    for (const args of [
      ['new', 'g', '--no-edit'],
      ['pin', 'x'],
    ]) {
      const r = runHandoff(bare, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^handoff: not inside a git work tree .*\n$/);
    }
  });

  it('a repository path with spaces and non-ASCII, and file names with spaces, newlines and quotes', () => {
    const repo = makeRepo({ name: 'my répo 日本 ü' });
    repo.write('a b/ü "q".ts', '1\n');
    repo.write('new\nline.ts', '2\n');
    repo.write('tab\there.ts', '3\n');
    const { made, parts } = works(repo.dir, /3 files and 0 commits/);
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('path: "a b/ü \\"q\\".ts"');
    expect(text).toContain('path: "new\\nline.ts"');
    expect(text).toContain('path: "tab\\there.ts"');
    // In Markdown a newline would start a new line: it is flattened, never a new list item.
    expect(parts.prompt).not.toMatch(/^line\.ts/m);
    const list = repo.handoff(['list', '--json']);
    expect(
      JSON.parse(list.stdout)
        .handoffs[0].files.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['a b/ü "q".ts', 'new\nline.ts', 'tab\there.ts']);
  });
});
