// A writer's record of a validated tree, made without staging the history (git-hooks/
// record-next.ts): the last record's tree with the writer's files set in it, recorded only
// when the view the roadmap came from is that tree's. What it records is the tree `git add
// -A .handoff` stages; it records nothing the hook has not validated; the tree ids it
// computes are git's; and the record's second line reads back as written.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSeen, parseSeen } from '../src/git-hooks/record-next.js';
import { editedTree, treeOfFiles } from '../src/git-hooks/tree-edit.js';
import { readTrees } from '../src/git/git-plumbing.js';
import { handoffText, id, pinPath, pinText } from './fixtures-items.js';
import { countNodeStarts, gitEnv, handoffFile, makeRepo, type Repo } from './helpers.js';

const ok = (repo: Repo, args: string[]) => {
  const r = repo.handoff(args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
};

function gitRun(repo: Repo, args: string[]) {
  const r = spawnSync('git', args, { cwd: repo.dir, env: gitEnv(), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The record's first line: what the hook's shell compares. */
const recorded = (repo: Repo) => readFileSync(path.join(repo.dir, '.git/handoff-validated'), 'utf8').split('\n')[0]!;
const recordedTree = (repo: Repo) => recorded(repo).split(' ')[1];

/** The tree `git add -A .handoff` would stage, asked of git in a temporary index (the user's left alone). */
function stagedTree(repo: Repo): string {
  const temp = path.join(repo.dir, '.git/test-index');
  writeFileSync(temp, readFileSync(path.join(repo.dir, '.git/index')));
  const env = gitEnv({ GIT_INDEX_FILE: temp });
  execFileSync('git', ['add', '-A', '--', '.handoff'], { cwd: repo.dir, env });
  return execFileSync('git', ['write-tree', '--prefix=.handoff/'], { cwd: repo.dir, env, encoding: 'utf8' }).trim();
}

/** An old closed handoff alone in its dated folder: no writer touches that folder, and the roadmap does not show it. */
const OLD = '01hx000000000001abcdefghjk';

/**
 * Forty finished handoffs, the old one, an open one and a pin, committed through the hook
 * (which validates them and records the tree); then the folders are left to age past the
 * open index's two seconds and a session start keeps them.
 */
function history(repo: Repo): void {
  ok(repo, ['init', '--hooks']);
  for (let n = 1; n <= 40; n++)
    repo.write(handoffFile(id(n)), handoffText({ id: id(n), status: 'done', finished: '2026-01-06T10:00:00.000Z' }));
  repo.write(handoffFile(OLD), handoffText({ id: OLD, status: 'done', finished: '2026-01-06T10:00:00.000Z' }));
  repo.write(handoffFile(id(41)), handoffText({ id: id(41), goal: 'the open one' }));
  repo.write(pinPath(id(50)), pinText({ id: id(50) }, 'never touch the auth module'));
  repo.git('add', '-A');
  expect(gitRun(repo, ['commit', '-q', '-m', 'a history']).code).toBe(0);
  expect(recordedTree(repo)).toBe(repo.git('rev-parse', 'HEAD:.handoff').trim());
  const folder = path.join(repo.dir, path.dirname(handoffFile(OLD)));
  while (Date.now() - statSync(folder).ctimeMs <= 2500)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  ok(repo, ['resume']);
}

describe("a writer's record", () => {
  it('is the tree git add -A stages, writer after writer, and the commit skips node', () => {
    const repo = makeRepo();
    history(repo);
    const starts = countNodeStarts(repo);
    const trace = path.join(path.dirname(repo.dir), 'git-trace.log');
    const first = repo.handoff(['new', 'the first step', '--no-edit'], { env: { GIT_TRACE: trace } });
    expect(first.code, first.stderr).toBe(0);
    expect(recordedTree(repo)).toBe(stagedTree(repo));
    // From the last record: git read its folders, and staged nothing.
    const ran = readFileSync(trace, 'utf8');
    expect(ran).toContain('git cat-file --batch');
    expect(ran).not.toMatch(/git (add|update-index|write-tree)/);
    ok(repo, ['pin', 'keep the public API stable']);
    expect(recordedTree(repo)).toBe(stagedTree(repo));
    ok(repo, ['new', 'the second step', '--no-edit']);
    expect(recordedTree(repo)).toBe(stagedTree(repo));
    ok(repo, ['done']);
    expect(recordedTree(repo)).toBe(stagedTree(repo));
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'steps'])).toMatchObject({ code: 0, stderr: '' });
    expect(starts()).toBe(0);
    ok(repo, ['roadmap', '--check']);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('is not made when the view missed a handoff the recorded tree has open: the commit runs node and its roadmap is current', () => {
    const repo = makeRepo();
    history(repo);
    // Reopened in place (same file, same folder): the open index does not see it, the hook reads every file.
    writeFileSync(path.join(repo.dir, handoffFile(OLD)), handoffText({ id: OLD, goal: 'reopened by hand' }));
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'reopen by hand']).code).toBe(0);
    expect(repo.git('show', 'HEAD:.handoff/ROADMAP.md')).toContain('reopened by hand');
    const before = recorded(repo);
    const starts = countNodeStarts(repo);
    ok(repo, ['new', 'the next step', '--no-edit']);
    // The writer's roadmap comes from the open index, which missed it: that tree is not recorded.
    expect(recorded(repo)).toBe(before);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'next']).code).toBe(0);
    expect(starts()).toBe(1);
    expect(repo.git('show', 'HEAD:.handoff/ROADMAP.md')).toContain('reopened by hand');
    ok(repo, ['roadmap', '--check']);
  });

  it('never vouches for a file the writer did not write: a handoff broken in place after the record stops the commit', () => {
    const repo = makeRepo();
    history(repo);
    const file = handoffFile(OLD);
    writeFileSync(
      path.join(repo.dir, file),
      handoffText({ id: OLD, status: 'done', finished: '2026-01-06T10:00:00.000Z' }).replace(
        /^status: .*$/m,
        'status: halfway',
      ),
    );
    const starts = countNodeStarts(repo);
    ok(repo, ['new', 'the next step', '--no-edit']);
    // Whatever it recorded holds the file as the hook validated it, not as it is now.
    expect(recordedTree(repo)).not.toBe(stagedTree(repo));
    repo.git('add', '-A');
    const r = gitRun(repo, ['commit', '-q', '-m', 'broken']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`handoff: ${file}: front-matter 'status' must be one of open, done, superseded`);
    expect(starts()).toBe(1);
  });
});

describe('the tree id computed in process', () => {
  it("is git's, for a file replaced, added beside others, and added in folders that do not exist yet", async () => {
    const repo = makeRepo();
    repo.write('top.md', 'top\n');
    repo.write('a/b/one.md', 'one\n');
    repo.write('a/b/two.md', 'two\n');
    repo.write('a/b-c.md', 'sorts between a/b and a/b/ in git\n');
    repo.write('a/c/three.md', 'three\n');
    repo.commit('trees');
    const base = repo.git('rev-parse', 'HEAD^{tree}').trim();
    const blob = (text: string) =>
      execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.dir, input: text, encoding: 'utf8' }).trim();
    const edits = new Map([
      ['a/b/one.md', blob('one, edited\n')],
      ['a/b/zero.md', blob('zero\n')],
      ['a/new/deeper/four.md', blob('four\n')],
      ['top.md', blob('top, edited\n')],
    ]);
    const folders = ['', 'a', 'a/b', 'a/new', 'a/new/deeper'];
    const found = await readTrees(
      repo.dir,
      folders.map((f) => (f ? `${base}:${f}` : base)),
    );
    const trees = new Map(
      folders.flatMap((f) =>
        found.has(f ? `${base}:${f}` : base) ? [[f, found.get(f ? `${base}:${f}` : base)!]] : [],
      ),
    );
    expect([...trees.keys()]).toEqual(['', 'a', 'a/b']);
    for (const [file, id] of edits) repo.git('update-index', '--add', '--cacheinfo', `100644,${id},${file}`);
    expect(editedTree(trees, edits)).toBe(repo.git('write-tree').trim());
    // A file where a folder is, or a folder where a file is: no id.
    expect(editedTree(trees, new Map([['a/b', blob('x\n')]]))).toBeUndefined();
    expect(editedTree(trees, new Map([['top.md/x.md', blob('x\n')]]))).toBeUndefined();
  });
});

describe("check's record", () => {
  it('is the tree git add -A stages, computed without staging, after check closes a landed handoff', () => {
    const repo = makeRepo();
    ok(repo, ['init']); // no hooks: the merge is made as on a server
    // Files of .handoff/ that are not items stay as the index has them: a nested one, an executable one.
    repo.write('.handoff/notes/read-me.txt', 'kept beside the handoffs\n');
    repo.write('.handoff/run.sh', '#!/bin/sh\n');
    repo.git('add', '-A');
    repo.git('update-index', '--chmod=+x', '.handoff/run.sh');
    expect(gitRun(repo, ['commit', '-q', '-m', 'set up handoff']).code).toBe(0);
    repo.git('checkout', '-q', '-b', 'feature');
    ok(repo, ['new', 'team accounts', '--no-edit']);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'teams, with its handoff']).code).toBe(0);
    repo.git('checkout', '-q', 'main');
    repo.commit('meanwhile on main', { 'other.txt': 'x\n' });
    expect(gitRun(repo, ['merge', '-q', '--no-ff', '--no-edit', 'feature']).code).toBe(0);
    // An untracked pin: what git add -A stages, not what the index holds.
    repo.write(pinPath(id(50)), pinText({ id: id(50) }, 'never touch the auth module'));
    rmSync(path.join(repo.dir, '.git/handoff-validated'), { force: true });

    const trace = path.join(path.dirname(repo.dir), 'check-trace.log');
    const check = repo.handoff(['check', '--json'], { env: { GIT_TRACE: trace } });
    expect(check.code, check.stdout).toBe(0);
    expect(JSON.parse(check.stdout).closed).toHaveLength(1);
    expect(recordedTree(repo)).toBe(stagedTree(repo));
    expect(readFileSync(trace, 'utf8')).not.toMatch(/git (add|update-index|write-tree)/);
    // The commit of what check wrote skips node.
    ok(repo, ['hooks', 'install']);
    const starts = countNodeStarts(repo);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'check closed what landed'])).toMatchObject({ code: 0, stderr: '' });
    expect(starts()).toBe(0);
  });
});

describe('a tree computed from its files', () => {
  it("has git's id, in git's order of names, and none when a name is both a file and a folder", () => {
    const repo = makeRepo();
    const blob = (text: string) =>
      execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.dir, input: text, encoding: 'utf8' }).trim();
    const files = new Map([
      ['a.md', { mode: '100644', id: blob('a\n') }],
      ['a/b.md', { mode: '100644', id: blob('b\n') }],
      ['a-b/c.md', { mode: '100755', id: blob('c\n') }],
      ['a0.md', { mode: '100644', id: blob('0\n') }],
      ['\u00e9t\u00e9.md', { mode: '100644', id: blob('summer\n') }],
      ['\uff21.md', { mode: '100644', id: blob('wide\n') }],
      ['\u{1f600}.md', { mode: '100644', id: blob('smile\n') }],
      ['deep/er/still/d.md', { mode: '100644', id: blob('d\n') }],
    ]);
    repo.git('read-tree', '--empty');
    for (const [file, { mode, id }] of files) repo.git('update-index', '--add', '--cacheinfo', `${mode},${id},${file}`);
    expect(treeOfFiles(files)).toBe(repo.git('write-tree').trim());
    expect(treeOfFiles(new Map([...files, ['a.md/x.md', { mode: '100644', id: blob('x\n') }]]))).toBeUndefined();
    expect(treeOfFiles(new Map([...files, ['deep', { mode: '100644', id: blob('x\n') }]]))).toBeUndefined();
    // Names between a file and the folder of its name (a-b/, a.md, a0.md sort between `a` and `a/`).
    expect(treeOfFiles(new Map([...files, ['a', { mode: '100644', id: blob('x\n') }]]))).toBeUndefined();
  });
});

describe("the record's second line", () => {
  it('reads back as written, and anything else reads as no view', () => {
    const seen = {
      open: { [pinPath(id(50))]: 'a'.repeat(40), [handoffFile(id(41))]: 'b'.repeat(40) },
      closed: 'c'.repeat(64),
    };
    expect(parseSeen(formatSeen(seen))).toEqual(seen);
    expect(formatSeen(parseSeen(formatSeen(seen))!)).toBe(formatSeen(seen));
    for (const bad of [
      undefined,
      '',
      'not json',
      '{"open":{}}',
      '{"closed":"x","open":{"a":1}}',
      '{"closed":"x","open":null}',
    ])
      expect(parseSeen(bad)).toBeUndefined();
  });
});
