// Checking out a branch that never committed the roadmap, after one that did, leaves no
// untracked ROADMAP.md behind to block the checkout back.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';

const git = (dir: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8' });
  return { code: r.status ?? -1, stderr: r.stderr };
};

describe('post-checkout and the roadmap', () => {
  it('switching between a branch with a committed roadmap and one without works both ways', () => {
    const repo = makeRepo();
    repo.write('.handoff/config.yml', 'roadmap: ROADMAP.md\n');
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    // Without the roadmap: a handoff committed with the hooks skipped.
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    expect(
      spawnSync('git', ['commit', '-q', '-m', 'no roadmap'], { cwd: repo.dir, env: gitEnv({ HANDOFF_SKIP: '1' }) })
        .status,
    ).toBe(0);
    expect(existsSync(path.join(repo.dir, 'ROADMAP.md'))).toBe(false);
    repo.git('checkout', '-q', '-b', 'with-roadmap');
    repo.write(handoffPath(id(2)), handoffText({ id: id(2) }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'with roadmap'); // the pre-commit hook adds ROADMAP.md
    expect(repo.git('ls-files', 'ROADMAP.md').trim()).toBe('ROADMAP.md');
    for (const [branch, has] of [
      ['main', false],
      ['with-roadmap', true],
      ['main', false],
    ] as const) {
      const r = git(repo.dir, 'checkout', '-q', branch);
      expect(r.code, `${branch}: ${r.stderr}`).toBe(0);
      expect(existsSync(path.join(repo.dir, 'ROADMAP.md')), branch).toBe(has);
      expect(repo.git('status', '--porcelain')).toBe('');
    }
  });
});
