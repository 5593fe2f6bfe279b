// "Uncommitted now" from one `git status`, checked against what the two commands it
// replaced (`git diff HEAD` and `git ls-files --others`) say, on real git states: every
// staged and unstaged kind, a change staged and then put back in the work tree, a
// conflict, a type change, ignored and untracked files, and odd names.
import { chmodSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGit } from '../src/git/git.js';
import { parseStatus } from '../src/git/git-output.js';
import { makeRepo } from './helpers.js';

const nul = (out: string) => out.split('\0').filter(Boolean);

describe('uncommitted paths from git status', () => {
  it('match git diff HEAD plus the untracked files, listed paths and whole tree alike', async () => {
    const repo = makeRepo();
    const names = [
      'clean',
      'mod',
      'staged',
      'back',
      'twice',
      'del',
      'rm',
      'type',
      'mode',
      'conflict',
      'sp ace',
      'new\nline',
    ];
    repo.commit('base', { '.gitignore': 'ign.log\n', ...Object.fromEntries(names.map((n) => [`t/${n}`, `${n}\n`])) });
    repo.git('checkout', '-q', '-b', 'other');
    repo.commit('other side', { 't/conflict': 'theirs\n' });
    repo.git('checkout', '-q', '-');
    repo.commit('our side', { 't/conflict': 'ours\n' });
    expect(() => repo.git('merge', '-q', 'other')).toThrow();
    const staged = (file: string, text: string) => (repo.write(file, text), repo.git('add', '--', file));
    repo.write('t/mod', 'changed\n');
    staged('t/staged', 'changed\n');
    staged('t/back', 'changed\n');
    repo.write('t/back', 'back\n');
    staged('t/twice', 'once\n');
    repo.write('t/twice', 'changed twice\n');
    unlinkSync(path.join(repo.dir, 't/del'));
    repo.git('rm', '-q', 't/rm');
    unlinkSync(path.join(repo.dir, 't/type'));
    symlinkSync('mod', path.join(repo.dir, 't/type'));
    chmodSync(path.join(repo.dir, 't/mode'), 0o755);
    repo.write('t/sp ace', 'changed\n');
    repo.write('t/new\nline', 'changed\n');
    staged('n/added', 'new\n');
    repo.write('n/ita', 'intent\n');
    repo.git('add', '-N', 'n/ita');
    repo.write('u/one', '1\n');
    repo.write('u/dir/two', '2\n');
    repo.write('ign.log', 'ignored\n');

    const git = await openGit(repo.dir);
    const listed = [
      ...names.map((n) => `t/${n}`),
      'n/added',
      'n/ita',
      'u/one',
      'u/dir/',
      'ign.log',
      'missing',
      't/[ct]*',
    ];
    const oldAnswer = (within?: string[]) => {
      const [literal, paths] = within ? [['--literal-pathspecs'], within] : [[], [':/']];
      return [
        ...nul(repo.git(...literal, 'diff', '-z', '--no-relative', '--name-only', 'HEAD', '--', ...(within ?? []))),
        ...nul(repo.git(...literal, 'ls-files', '-z', '--others', '--exclude-standard', '--full-name', '--', ...paths)),
      ].sort();
    };
    const now = (await git.uncommittedPaths(listed)).sort();
    expect(now).toEqual(oldAnswer(listed));
    expect((await git.uncommittedPaths()).sort()).toEqual(oldAnswer());
    // The case status alone cannot settle is there, and answered by diff: staged, then put back.
    expect(now).not.toContain('t/back');
    expect(now).toEqual(
      expect.arrayContaining(['t/twice', 't/conflict', 't/type', 't/mode', 't/new\nline', 'n/ita', 'u/dir/two']),
    );
    expect(now).not.toContain('ign.log');
    // Asked with --ignored too, the answer is the same; it says whether a path is outside the index.
    expect(await git.uncommittedAmong(listed)).toEqual({
      paths: await git.uncommittedPaths(listed),
      outsideIndex: true,
    });
    const tracked = ['t/clean', 't/mod', 't/del', 't/twice', 'missing'];
    expect(await git.uncommittedAmong(tracked)).toEqual({ paths: ['t/del', 't/mod', 't/twice'], outsideIndex: false });
    expect((await git.uncommittedAmong(['ign.log'])).outsideIndex).toBe(true);
    expect((await git.uncommittedAmong(['u/one'])).outsideIndex).toBe(true);
  });

  it('sorts status entries into settled and unsure', () => {
    const out = [
      '1 .M N... 100644 100644 100644 a a b c',
      '1 MM N... 100644 100644 100644 a a d e',
      '1 .M SC.. 160000 160000 160000 a a sm',
      'u UU N... 100644 100644 100644 100644 a b c f g',
      '? h i',
      '! j',
      '# stash 1',
      '',
    ].join('\0');
    expect(parseStatus(out)).toEqual({ uncommitted: ['b c', 'h i'], unsure: ['d e', 'sm', 'f g'], outside: true });
    expect(parseStatus('1 .M N... 100644 100644 100644 a a b\0').outside).toBe(false);
    expect(parseStatus('! j\0').outside).toBe(true);
  });
});
