// One symbolic-link policy for every reader of .handoff/: the work tree, the index (the
// pre-commit hook) and a commit (check, the merge driver) refuse a linked pin alike.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo } from './helpers.js';
import { id, pinPath, pinText } from './fixtures-items.js';

const REFUSED = 'is a symbolic link; expected a regular file';

describe('a pin that is a symbolic link', () => {
  it('is refused by pins, roadmap, check and the pre-commit hook, and its target is never copied', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    repo.commit('set up handoff');
    const outside = path.join(mkdtempSync(path.join(tmpdir(), 'handoff-outside-')), 'pin.md');
    const pinId = id(7);
    writeFileSync(outside, pinText({ id: pinId }, 'OUTSIDE TEXT'));
    symlinkSync(outside, path.join(repo.dir, pinPath(pinId)));

    const pins = repo.handoff(['pins']);
    expect(pins.stdout).not.toContain('OUTSIDE TEXT');
    expect(pins.stderr).toContain(REFUSED);

    // Not written while the refused file is there (the roadmap would leave it out), and exits 1.
    expect(repo.handoff(['roadmap']).code).toBe(1);
    expect(repo.read('.handoff/ROADMAP.md')).not.toContain('OUTSIDE TEXT');

    const check = repo.handoff(['check']);
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toContain(`${pinPath(pinId)}: error: ${REFUSED}`);

    // From the index: the hook refuses it with the same words, not a parse error of the link's target.
    repo.git('add', '-A');
    let hook = '';
    try {
      repo.git('commit', '-q', '-m', 'linked pin');
    } catch (error) {
      hook = String((error as { stderr?: unknown }).stderr ?? error);
    }
    expect(hook).toContain(`${pinPath(pinId)}: ${REFUSED}`);
  });

  it('config.yml or the roadmap staged as a link stops the commit with the same words', () => {
    for (const file of ['.handoff/config.yml', '.handoff/ROADMAP.md']) {
      const repo = makeRepo();
      expect(repo.handoff(['init', '--hooks']).code).toBe(0);
      expect(repo.handoff(['roadmap']).code).toBe(0);
      repo.commit('set up handoff');
      // Staged as a link (mode 120000) while the work tree keeps the regular file.
      const target = execFileSync('git', ['hash-object', '-w', '--stdin'], {
        cwd: repo.dir,
        env: gitEnv(),
        input: '/etc/passwd',
        encoding: 'utf8',
      }).trim();
      repo.git('update-index', '--cacheinfo', `120000,${target},${file}`);
      let hook = '';
      try {
        repo.git('commit', '-q', '-m', 'linked');
      } catch (error) {
        hook = String((error as { stderr?: unknown }).stderr ?? error);
      }
      expect(hook, file).toContain(`${file}: ${REFUSED}`);
      expect(repo.git('log', '--format=%s', '-1').trim()).toBe('set up handoff');
    }
  });
});

describe('a .handoff that is a symbolic link', () => {
  it('is refused even when it points inside the repository: git would not see the files behind it', () => {
    const repo = makeRepo();
    repo.write('data/h/.keep', '');
    symlinkSync('data/h', path.join(repo.dir, '.handoff'));
    for (const args of [['init'], ['pin', 'a rule'], ['list']]) {
      const r = repo.handoff(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toBe(
        'handoff: .handoff is a symbolic link; git keeps the link, not the files under .handoff/, so no branch or pull request would show them (replace it with a directory)\n',
      );
    }
    expect(
      execFileSync('git', ['status', '--porcelain', '--', 'data'], { cwd: repo.dir, env: gitEnv() }).toString(),
    ).toBe('?? data/\n');
  });
});
