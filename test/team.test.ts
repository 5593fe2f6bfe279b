// The team's view: `list --all` and `roadmap --all` read every local and remote-tracking
// branch's handoffs from git objects, without checking anything out.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, type Repo } from './helpers.js';

function handoffOn(repo: Repo, branch: string, goal: string, from = 'main'): string {
  repo.git('checkout', '-q', '-b', branch, from);
  repo.write(`${branch}.txt`, `${branch}\n`);
  const file = repo.handoff(['new', goal]).stdout.trim();
  repo.commit(`${branch}: ${goal}`);
  return path.basename(file, '.md');
}

describe('the team view', () => {
  it('lists every branch and remote-tracking branch with where each version is, and changes nothing', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    repo.git('branch', 'early', 'main~1'); // no .handoff/ at all
    const billing = handoffOn(repo, 'billing', 'team billing');
    const search = handoffOn(repo, 'search', 'full-text search');
    // Another clone's branch, known here as a remote-tracking branch.
    const other = makeRepo({ name: 'other' });
    execFileSync('git', ['fetch', '-q', repo.dir, '+main:main', '--update-head-ok'], { cwd: other.dir, env: gitEnv() });
    other.git('checkout', '-q', '-f', 'main');
    const remote = handoffOn(other, 'export', 'csv export');
    repo.git('remote', 'add', 'other', other.dir);
    repo.git('fetch', '-q', 'other');
    repo.git('checkout', '-q', 'main');
    // An uncommitted handoff on main.
    repo.write('main.txt', 'm\n');
    const local = path.basename(repo.handoff(['new', 'docs pass']).stdout.trim(), '.md');
    const status = repo.git('status', '--porcelain');
    const head = repo.git('rev-parse', 'HEAD');

    const r = repo.handoff(['list', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).handoffs as Array<{ id: string; refs: string[]; status: string }>;
    const where = Object.fromEntries(rows.map((h) => [h.id, h.refs]));
    expect(where[billing]).toEqual(['billing']);
    expect(where[search]).toEqual(['search']);
    expect(where[remote]).toEqual(['other/export']);
    expect(where[local]).toEqual(['(working tree)']);
    expect(rows.map((h) => h.id)).toEqual([local, remote, search, billing]);
    // Nothing was checked out or written.
    expect(repo.git('status', '--porcelain')).toBe(status);
    expect(repo.git('rev-parse', 'HEAD')).toBe(head);

    const text = repo.handoff(['list', '--all', '--status', 'open']).stdout;
    expect(text).toMatch(new RegExp(`^${remote.slice(0, 8)}\\w*\\s+open\\s+\\S+\\s+other/export\\s+csv export$`, 'm'));
    expect(repo.handoff(['list', '--all', '--branch', 'search', '--json']).stdout).toContain(search);
    expect(repo.handoff(['list', '--all', '--branch', 'search', '--json']).stdout).not.toContain(billing);

    const roadmap = repo.handoff(['roadmap', '--all']);
    expect(roadmap.code, roadmap.stderr).toBe(0);
    expect(roadmap.stdout).toContain('## billing\n\n- team billing (`');
    expect(roadmap.stdout).toContain('## other/export\n\n- csv export (`');
    expect(roadmap.stdout).toContain('```mermaid\ngraph TD\n');
    expect(roadmap.stdout).toContain('Nothing open on: early, main, other/main.');
    const json = JSON.parse(repo.handoff(['roadmap', '--all', '--json']).stdout);
    expect(json.branches.find((b: { ref: string }) => b.ref === 'search').handoffs[0].id).toBe(search);
    expect(repo.git('status', '--porcelain')).toBe(status);
  });

  it('shows a handoff continued on a branch as a chain, and one version per content', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    const first = handoffOn(repo, 'work', 'step one');
    repo.git('branch', 'work-copy', 'work');
    repo.write('more.txt', 'more\n');
    const second = path.basename(repo.handoff(['new', 'step two']).stdout.trim(), '.md');
    repo.commit('step two');
    const rows = JSON.parse(repo.handoff(['list', '--all', '--json']).stdout).handoffs as Array<{
      id: string;
      status: string;
      refs: string[];
    }>;
    // The first handoff: superseded on work (and in the work tree), open on work-copy.
    expect(rows.filter((h) => h.id === first).map((h) => [h.status, h.refs])).toEqual([
      ['superseded', ['(working tree)', 'work']],
      ['open', ['work-copy']],
    ]);
    const roadmap = repo.handoff(['roadmap', '--all']).stdout;
    expect(roadmap).toContain(`h${first} --> h${second}`);
  });
  it('shows a committed handoff once with the work tree after a listing keyed it by its stat data alone', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    repo.write('a.txt', 'a\n');
    const file = repo.handoff(['new', 'one goal']).stdout.trim();
    repo.commit('one goal');
    const id = path.basename(file, '.md');
    // No cache: a listing reads the file, and once its stat data vouches for it (reader.ts
    // RACY_MS), keeps it by them, without its blob id.
    for (const name of readdirSync(path.join(repo.dir, '.git')))
      if (name.startsWith('handoff-')) rmSync(path.join(repo.dir, '.git', name), { recursive: true });
    while (Date.now() - statSync(path.join(repo.dir, file)).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    expect(repo.handoff(['list']).code).toBe(0);
    const r = repo.handoff(['list', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).handoffs as Array<{ id: string; refs: string[] }>;
    expect(rows.filter((h) => h.id === id).map((h) => h.refs)).toEqual([['(working tree)', 'main']]);
  });
});
