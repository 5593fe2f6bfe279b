// A directory git neither tracks nor ignores is one entry in a handoff, the way `git status`
// shows it, instead of thousands of lines in the handoff and in every resume prompt.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

describe('untracked directories', () => {
  it('list an un-ignored node_modules/ of 3,000 files as one line, and a small new folder file by file', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('init handoff');
    for (let d = 0; d < 30; d++) {
      const dir = path.join(repo.dir, 'node_modules', `pkg${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `f${f}.js`), 'module.exports = 1;\n');
    }
    repo.write('src/new/a.ts', 'export const a = 1;\n');
    repo.write('src/new/b.ts', 'export const b = 2;\n');

    const made = repo.handoff(['new', 'wire the new module']);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('handoff: 3,002 files and 0 commits');
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('- path: "node_modules/"\n    change: "added"\n    files: 3000\n    state: "untracked"');
    expect(text).toContain('`node_modules/` (3,000 untracked files)');
    expect(text).toContain('`src/new/a.ts` (added, untracked)');
    expect(text).not.toContain('pkg0');
    expect(text.length).toBeLessThan(5_000);

    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('`node_modules/` (3,000 untracked files)');
    expect(resume.stdout).not.toContain('pkg0');
    // Still untracked: said so, not "committed since" or "put back".
    expect(resume.stdout).toMatch(/still not committed: [^\n]*`node_modules\/`/);
  });

  it('follows untracked_dir_files in config.yml', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.write('.handoff/config.yml', 'untracked_dir_files: 1\n');
    repo.commit('init handoff');
    repo.write('src/new/a.ts', 'export const a = 1;\n');
    repo.write('src/new/b.ts', 'export const b = 2;\n');
    const made = repo.handoff(['new', 'wire the new module']);
    expect(made.code).toBe(0);
    expect(repo.read(made.stdout.trim())).toContain('`src/` (2 untracked files)');

    repo.write('.handoff/config.yml', 'untracked_dir_files: many\n');
    const bad = repo.handoff(['new', 'again']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/config\.yml.*untracked_dir_files must be a whole number/);
  });
});

describe('the state of each change', () => {
  it('is committed, staged, unstaged or untracked, for a top-level file or folder deleted too', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const files = [
      'src/a.ts',
      'src/b.ts',
      'src/c.ts',
      'src/d.ts',
      'src/e.ts',
      'gone/x.ts',
      'gone2/y.ts',
      'top1',
      'top2',
    ];
    repo.commit('init', Object.fromEntries(files.map((f) => [f, `${f}\n`])));
    repo.git('checkout', '-q', '-b', 'feat');
    repo.commit('work on a', { 'src/a.ts': 'a, more\n' });
    repo.write('src/b.ts', 'b, staged\n');
    repo.git('add', 'src/b.ts');
    repo.write('src/c.ts', 'c, unstaged\n');
    repo.write('src/d.ts', 'd, staged\n');
    repo.git('add', 'src/d.ts');
    repo.write('src/d.ts', 'd, staged, then changed\n');
    repo.git('mv', 'src/e.ts', 'src/e2.ts');
    rmSync(path.join(repo.dir, 'gone'), { recursive: true }); // no top-level entry left: a status over those there is does not see it
    repo.git('rm', '-rq', 'gone2');
    rmSync(path.join(repo.dir, 'top1'));
    repo.git('rm', '-q', 'top2');
    repo.write('newtop', 'n\n');
    repo.write('newdir/f.ts', 'f\n');
    mkdirSync(path.join(repo.dir, 'emptydir'));

    const made = repo.handoff(['new', 'the next step', '--no-edit']);
    expect(made.code).toBe(0);
    const text = repo.read(made.stdout.trim());
    const state = (file: string) =>
      new RegExp(`- path: "${file}"\\n(?:    .*\\n)*?    state: "([a-z]+)"`).exec(text)?.[1];
    expect(
      Object.fromEntries(
        [
          'src/a.ts',
          'src/b.ts',
          'src/c.ts',
          'src/d.ts',
          'src/e2.ts',
          'gone/x.ts',
          'gone2/y.ts',
          'top1',
          'top2',
          'newtop',
          'newdir/f.ts',
        ].map((f) => [f, state(f)]),
      ),
    ).toEqual({
      'src/a.ts': 'committed',
      'src/b.ts': 'staged',
      'src/c.ts': 'unstaged',
      'src/d.ts': 'unstaged',
      'src/e2.ts': 'staged',
      'gone/x.ts': 'unstaged',
      'gone2/y.ts': 'staged',
      top1: 'unstaged',
      top2: 'staged',
      newtop: 'untracked',
      'newdir/f.ts': 'untracked',
    });
    expect(text).not.toContain('emptydir');
    expect(text).toContain('    from: "src/e.ts"');
  });
});
