// Two branches that each add handoffs and pins: a real merge and a real rebase, with the
// merge driver regenerating the roadmap instead of conflicting.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, type Repo } from './helpers.js';

function gitRun(repo: Repo, args: string[]) {
  const r = spawnSync('git', args, { cwd: repo.dir, env: gitEnv(), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function twoBranches(): Repo {
  const repo = makeRepo();
  expect(repo.handoff(['init', '--hooks']).code).toBe(0);
  repo.handoff(['pin', 'shared rule from main']);
  repo.git('add', '-A');
  gitRun(repo, ['commit', '-q', '-m', 'set up']);
  repo.git('checkout', '-q', '-b', 'left');
  repo.handoff(['pin', 'rule from left']);
  repo.write('left.txt', 'left\n');
  repo.handoff(['new', 'left goal', '--no-edit']);
  repo.git('add', '-A');
  expect(gitRun(repo, ['commit', '-q', '-m', 'left work']).code).toBe(0);
  repo.git('checkout', '-q', 'main');
  repo.git('checkout', '-q', '-b', 'right');
  repo.handoff(['pin', 'rule from right']);
  repo.write('right.txt', 'right\n');
  repo.handoff(['new', 'right goal', '--no-edit']);
  repo.git('add', '-A');
  expect(gitRun(repo, ['commit', '-q', '-m', 'right work']).code).toBe(0);
  return repo;
}

function expectCurrent(repo: Repo) {
  const committed = repo.git('show', 'HEAD:.handoff/ROADMAP.md');
  for (const text of [
    'rule from left',
    'rule from right',
    'shared rule from main',
    '#### left goal',
    '#### right goal',
  ])
    expect(committed).toContain(text);
  expect(repo.git('status', '--porcelain')).toBe('');
  expect(repo.handoff(['roadmap', '--check']).code).toBe(0);
}

describe('the roadmap merge driver', () => {
  it('merges two branches with no conflict and a current roadmap', () => {
    const repo = twoBranches();
    const merge = gitRun(repo, ['merge', '--no-edit', 'left']);
    expect(merge.code).toBe(0);
    expect(merge.stderr).toContain(
      'handoff: regenerated .handoff/ROADMAP.md for the merge instead of merging its text',
    );
    expectCurrent(repo);
  });

  it('rebases one branch onto the other with no conflict and a current roadmap', () => {
    const repo = twoBranches();
    const rebase = gitRun(repo, ['rebase', 'left']);
    expect(rebase.code).toBe(0);
    expectCurrent(repo);
  });

  it('works with the apply backend of rebase too', () => {
    const repo = twoBranches();
    const rebase = gitRun(repo, ['rebase', '--apply', 'left']);
    expect(rebase.code).toBe(0);
    expect(rebase.stderr + rebase.stdout).toContain('handoff: regenerated .handoff/ROADMAP.md for the merge');
    expectCurrent(repo);
  });

  it('without the driver the same merge conflicts (the test would notice a dead driver)', () => {
    const repo = twoBranches();
    repo.git('config', '--remove-section', 'merge.handoff-roadmap');
    const merge = gitRun(repo, ['merge', '--no-edit', 'left']);
    expect(merge.code).not.toBe(0);
    expect(merge.stdout + merge.stderr).toContain('Merge conflict in .handoff/ROADMAP.md');
    gitRun(repo, ['merge', '--abort']);
  });
});
