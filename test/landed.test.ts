// Handoffs close when their work lands: merged into the default branch, a branch's open
// handoff is marked done with the merge as its evidence, by the post-merge hook and by
// `check` on the default branch (merges made on a server).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, type Repo } from './helpers.js';

function gitRun(repo: Repo, args: string[]) {
  const r = spawnSync('git', args, { cwd: repo.dir, env: gitEnv(), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A feature branch with an open handoff, and a commit on main so that the merge is a real one. */
function branchWithHandoff(repo: Repo): string {
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write('src/teams.ts', 'export const teams = 1;\n');
  const file = repo.handoff(['new', 'team accounts']).stdout.trim();
  repo.commit('teams, with its handoff');
  repo.git('checkout', '-q', 'main');
  repo.commit('meanwhile on main', { 'other.txt': 'x\n' });
  return file;
}

const front = (repo: Repo, file: string) =>
  JSON.parse(repo.handoff(['show', path.basename(file, '.md'), '--json']).stdout);

describe('a handoff whose branch lands', () => {
  it('is closed by the post-merge hook, with the merge as evidence and its time as finished', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    expect(repo.handoff(['pin', 'keep it small']).code).toBe(0);
    repo.commit('set up handoff');
    const file = branchWithHandoff(repo);
    const merge = gitRun(repo, ['merge', '-q', '--no-ff', '--no-edit', 'feature']);
    expect(merge.code, merge.stderr).toBe(0);
    const head = repo.git('rev-parse', 'HEAD').trim();
    const time = new Date(repo.git('log', '-1', '--format=%cI').trim()).toISOString();
    const id = path.basename(file, '.md');
    expect(merge.stderr).toContain(
      `handoff: marked ${id} done: branch 'feature' landed on main in ${head.slice(0, 12)} (${file}; commit it)`,
    );
    expect(front(repo, file)).toMatchObject({ status: 'done', landed: head, finished: time });
    // resume on main no longer offers it as the work in progress; the roadmap says it is finished.
    expect(JSON.parse(repo.handoff(['resume', '--json']).stdout).id).toBeNull();
    expect(repo.read('.handoff/ROADMAP.md')).toContain('team accounts');
    expect(repo.handoff(['roadmap', '--check']).code).toBe(0);
    // On its own branch the handoff is still open: work may go on there.
    repo.commit('record the landing');
    repo.git('checkout', '-q', 'feature');
    expect(front(repo, file).status).toBe('open');
  });

  it('is closed by check on the default branch after a merge made elsewhere, the same bytes in every clone', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    const file = branchWithHandoff(repo);
    // No hooks: as on a server.
    expect(gitRun(repo, ['merge', '-q', '--no-ff', '--no-edit', 'feature']).code).toBe(0);
    expect(front(repo, file).status).toBe('open');

    // On another branch, check closes nothing.
    repo.git('checkout', '-q', '-b', 'elsewhere');
    expect(JSON.parse(repo.handoff(['check', '--json']).stdout).closed).toEqual([]);
    repo.git('checkout', '-q', 'main');

    const check = repo.handoff(['check', '--json']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, closed: [file] });
    expect(check.stderr).toContain(`branch 'feature' landed on main`);
    const first = repo.read(file);
    expect(front(repo, file).landed).toBe(repo.git('rev-parse', 'HEAD').trim());
    // Again: nothing more to close.
    expect(JSON.parse(repo.handoff(['check', '--json']).stdout).closed).toEqual([]);

    // A second clone closing the same handoff writes the same file.
    repo.git('checkout', '-q', '--', '.handoff');
    repo.git('checkout', '-q', '--', '.');
    expect(front(repo, file).status).toBe('open');
    expect(repo.handoff(['check']).code).toBe(0);
    expect(repo.read(file)).toBe(first);
  });

  it('closes every handoff that landed in one check, each with its own merge as evidence', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    const landed: Array<{ file: string; merge: string; branch: string }> = [];
    for (const branch of ['teams', 'billing', 'search']) {
      repo.git('checkout', '-q', '-b', branch);
      repo.write(`src/${branch}.ts`, `export const ${branch} = 1;\n`);
      const file = repo.handoff(['new', `${branch} work`]).stdout.trim();
      // One edited by a person (a comment): closed through the YAML document, the others as written text.
      if (branch === 'billing') repo.write(file, repo.read(file).replace(/^---\n/, '---\n# reviewed by Ann\n'));
      repo.commit(`${branch}, with its handoff`);
      repo.git('checkout', '-q', 'main');
      repo.commit(`meanwhile on main before ${branch}`, { [`${branch}.txt`]: 'x\n' });
      // No hooks: as on a server.
      expect(gitRun(repo, ['merge', '-q', '--no-ff', '--no-edit', branch]).code).toBe(0);
      landed.push({ file, merge: repo.git('rev-parse', 'HEAD').trim(), branch });
    }
    const check = repo.handoff(['check', '--json']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).closed).toEqual(landed.map((l) => l.file));
    for (const l of landed) {
      expect(check.stderr).toContain(`branch '${l.branch}' landed on main in ${l.merge.slice(0, 12)} (${l.file}`);
      expect(front(repo, l.file)).toMatchObject({ status: 'done', landed: l.merge });
    }
    expect(repo.read(landed[1]!.file)).toMatch(/^---\n# reviewed by Ann\nid: /);
    expect(repo.handoff(['roadmap', '--check']).code).toBe(0);
    const texts = landed.map((l) => repo.read(l.file));
    // Again from the committed files: the same bytes.
    repo.git('checkout', '-q', '--', '.handoff');
    expect(front(repo, landed[0]!.file).status).toBe('open');
    expect(repo.handoff(['check']).code).toBe(0);
    expect(landed.map((l) => repo.read(l.file))).toEqual(texts);
    expect(JSON.parse(repo.handoff(['check', '--json']).stdout).closed).toEqual([]);
  });

  it('is closed by check without asking git again about its head, found whole before it landed', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    const file = branchWithHandoff(repo);
    expect(gitRun(repo, ['merge', '-q', '--no-ff', '--no-edit', 'feature']).code).toBe(0);
    // Known by its stat data in both runs below (store/reader.ts RACY_MS): wait for it to vouch.
    while (Date.now() - statSync(path.join(repo.dir, file)).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    const trace = path.join(path.dirname(repo.dir), 'landed-trace.log');
    const check = () => {
      rmSync(trace, { force: true });
      const r = repo.handoff(['check', '--json'], { env: { GIT_TRACE: trace } });
      return {
        closed: JSON.parse(r.stdout).closed,
        asked: readFileSync(trace, 'utf8').includes('cat-file --batch-check'),
      };
    };
    // On another branch nothing closes, and git finds its head commit.
    repo.git('checkout', '-q', '-b', 'elsewhere');
    expect(check()).toEqual({ closed: [], asked: true });
    repo.git('checkout', '-q', 'main');
    // Closed on main: it names the same head, which is not asked about again.
    expect(check()).toEqual({ closed: [file], asked: false });
    expect(front(repo, file).status).toBe('done');
  });

  it('stays open when it was never committed on the default branch', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('a.txt', 'a\n');
    const file = repo.handoff(['new', 'not committed']).stdout.trim();
    repo.git('checkout', '-q', 'main');
    const check = repo.handoff(['check', '--json']);
    expect(JSON.parse(check.stdout).closed).toEqual([]);
    expect(front(repo, file).status).toBe('open');
  });
});
