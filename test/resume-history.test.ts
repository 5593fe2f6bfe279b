// The commits since a handoff, remembered under the two commit ids (resume/history.ts):
// what resume says with the answer remembered is what it says from nothing, in every
// state HEAD can be in, and a session start with no new commit asks git nothing about
// commits. HEAD's commit is read from git's files only where that is safe (git/repo.ts).
// What is uncommitted among the listed files, remembered under the stat data it rests on
// (resume/uncommitted.ts): asked again whenever HEAD, the index or a listed file moves.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedHead } from '../src/git/repo.js';
import { compactEntries, packPaths, stampsText, unpackPaths } from '../src/resume/changed-since.js';
import type { Stamp } from '../src/store/fs.js';
import { handoffFile, makeRepo, tempDir, type Repo } from './helpers.js';

const cacheOf = (repo: Repo) => path.join(repo.dir, '.git', 'handoff-cache.json');

/** resume with what the cache remembers, and from nothing: the same words, or the test fails. */
function resume(repo: Repo, args: string[] = ['resume']): string {
  const remembered = repo.handoff(args);
  expect(remembered.stderr).toBe('');
  // Every cache moved aside (a run may have written no answers file), then put back.
  const files = ['handoff-cache.json', 'handoff-open.json', 'handoff-clean.json', 'handoff-resume.json'].map((n) =>
    path.join(repo.dir, '.git', n),
  );
  const kept = files.map((f) => (existsSync(f) ? readFileSync(f) : undefined));
  for (const f of files) rmSync(f, { force: true });
  rmSync(path.join(repo.dir, '.git', 'handoff-items'), { recursive: true, force: true });
  const fresh = repo.handoff(args);
  files.forEach((f, i) => (kept[i] ? writeFileSync(f, kept[i]) : rmSync(f, { force: true })));
  expect(remembered.stdout).toBe(fresh.stdout);
  return remembered.stdout.slice(remembered.stdout.indexOf('## Since the handoff'));
}

/** The git commands a run started, sorted: they run at once, so they are compared as a set. */
function gitRuns(repo: Repo, args: string[] = ['resume']): string[] {
  const trace = path.join(tempDir(), 'trace');
  expect(repo.handoff(args, { env: { GIT_TRACE: trace } }).code).toBe(0);
  // No git started, no trace written.
  const text = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
  return [...text.matchAll(/built-in: git (\S+)/g)].map((m) => m[1]!).sort();
}

/** gitRuns but the questions of the work tree, remembered under the stat data they rest on (tested below). */
const commitsAsked = (repo: Repo, args?: string[]) => gitRuns(repo, args).filter((c) => c !== 'status' && c !== 'diff');

// No cache file is nothing remembered: the parsed items live in their own files, so a run that remembers no answer writes none.
/** The remembered histories (`<since>..<tip>`); whose a handoff is is remembered beside them. */
const remembered = (repo: Repo) =>
  existsSync(cacheOf(repo))
    ? Object.keys((JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as { answers: object }).answers).filter((k) =>
        k.includes('..'),
      )
    : [];

/** A handoff written with work in progress, committed with it. */
function withHandoff(): { repo: Repo; id: string } {
  const repo = makeRepo();
  repo.commit('app', { 'app.js': 'v1\n' });
  repo.write('app.js', 'v2\n');
  repo.write('notes.md', 'left\n');
  const file = repo.handoff(['new', 'work', '--no-edit']).stdout.trim();
  repo.commit('handoff and work');
  return { repo, id: path.basename(file, '.md') };
}

describe('commits since a handoff, remembered', () => {
  it('says what git says in every state HEAD moves through, and asks git about commits only for a new one', () => {
    const { repo, id } = withHandoff();
    expect(resume(repo)).toContain('1 commit since it was written');
    expect(commitsAsked(repo)).toEqual([]);
    repo.write('other.js', 'x\n');
    repo.git('add', 'other.js');
    expect(resume(repo)).toContain('1 commit since it was written');
    repo.commit('other');
    const afterCommit = resume(repo);
    expect(afterCommit).toContain('2 commits since it was written');
    expect(afterCommit).toContain(' other\n');
    expect(commitsAsked(repo)).toEqual([]);
    // Refs packed, then a loose ref again over the packed one.
    repo.git('pack-refs', '--all');
    expect(resume(repo)).toBe(afterCommit);
    expect(commitsAsked(repo)).toEqual([]);
    repo.commit('third', { 'third.js': '3\n' });
    expect(resume(repo)).toContain('3 commits since it was written');
    // Back to an earlier commit, then forward to a new one that replaces it.
    repo.git('reset', '-q', '--hard', 'HEAD~2');
    expect(resume(repo)).toContain('1 commit since it was written');
    repo.commit('amended', { 'amended.js': 'a\n' });
    expect(resume(repo)).toMatch(/2 commits since it was written[\s\S]* amended\n/);
    // Detached, and resumed by id.
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    expect(resume(repo, ['resume', id])).toContain('1 commit since it was written');
    expect(commitsAsked(repo, ['resume', id])).toEqual([]);
    expect(remembered(repo).length).toBeGreaterThan(3);
    // A damaged answer is not trusted: git is asked again.
    const data = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as { answers: Record<string, unknown> };
    for (const key of Object.keys(data.answers)) data.answers[key] = { commits: 'none', count: 'many' };
    writeFileSync(cacheOf(repo), JSON.stringify(data));
    expect(gitRuns(repo, ['resume', id])).toContain('log');
    expect(resume(repo, ['resume', id])).toContain('1 commit since it was written');
  });

  it('outlives commands that write many handoffs between two session starts', () => {
    const { repo, id } = withHandoff();
    // Put back by git, the handoff is no longer as this clone wrote it: whose it is, asked of
    // git once, is remembered beside the commits.
    rmSync(path.join(repo.dir, handoffFile(id)));
    repo.git('checkout', '--', handoffFile(id));
    repo.commit('more', { 'more.js': 'm\n' });
    const before = resume(repo);
    expect(commitsAsked(repo)).toEqual([]);
    // Each write records its file as this clone's (store/own.ts): more of those than the
    // cache keeps answers of one kind, on another branch so the handoff resumed stays the same.
    repo.git('checkout', '-q', '-b', 'elsewhere');
    for (let i = 0; i < 9; i++) expect(repo.handoff(['new', `other ${i}`, '--no-edit']).code).toBe(0);
    repo.git('checkout', '-q', 'main');
    expect(commitsAsked(repo)).toEqual([]);
    expect(resume(repo)).toBe(before);
  });

  it('is not remembered where a commit id does not fix the answer: a shortened id, replaced commits', () => {
    const { repo, id } = withHandoff();
    const file = handoffFile(id);
    repo.write(file, repo.read(file).replace(/^head: "?([0-9a-f]{12})[0-9a-f]+"?$/m, 'head: "$1"'));
    repo.commit('head shortened');
    expect(resume(repo)).toContain('1 commit since it was written');
    repo.commit('more', { 'more.js': 'm\n' });
    expect(resume(repo)).toContain('2 commits since it was written');
    expect(gitRuns(repo)).toContain('log');
    expect(remembered(repo)).toEqual([]);
    const { repo: other } = withHandoff();
    other.commit('x', { 'x.js': 'x\n' });
    expect(resume(other)).toContain('2 commits since it was written');
    // HEAD's parent replaced by the handoff's commit: the same HEAD, another history.
    other.git('replace', '--graft', 'HEAD', 'HEAD~2');
    expect(resume(other)).toContain('1 commit since it was written');
    expect(gitRuns(other)).toContain('log');
  });
});

describe('commits since a handoff that changed too much to remember', () => {
  it('remembers the commits and, for the files the handoff lists, what they changed: git is asked neither again', () => {
    const { repo } = withHandoff();
    // One commit that adds more files than the cache keeps changes of (history.ts CHANGES_KEPT).
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`lib/f${i}.js`] = `${i}\n`;
    repo.commit('a code base', files);
    expect(resume(repo)).toContain('2 commits since it was written');
    expect(remembered(repo).length).toBe(1);
    // Only the work tree is asked about, when it is (a diff against the handoff's commit, a status of its files).
    expect(commitsAsked(repo)).toEqual([]);
    // The handoff's file committed and renamed by a commit of more than can be remembered: said, then remembered.
    const more: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) more[`lib/g${i}.js`] = `${i}\n`;
    repo.git('mv', 'notes.md', 'docs-notes.md');
    repo.commit('more code, notes moved', more);
    const moved = resume(repo);
    expect(moved).toContain('3 commits since it was written');
    expect(moved).toContain('docs-notes.md');
    expect(commitsAsked(repo)).toEqual([]);
    expect(resume(repo)).toBe(moved);
  });
});

/** Waits, on the clock, until the files' stat data can vouch for them (store/reader.ts RACY_MS). */
function aged(repo: Repo, ...files: string[]): void {
  const newest = () => Math.max(...files.map((f) => statSync(path.join(repo.dir, f)).ctimeMs));
  while (Date.now() - newest() <= 2500) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
}

describe('what is uncommitted among the listed files, remembered', () => {
  it('is asked of git once while HEAD, the index and the listed files stay as they were, and again when one moves', () => {
    const { repo } = withHandoff();
    aged(repo, '.git/index', 'app.js', 'notes.md');
    expect(resume(repo)).toContain('Uncommitted when it was written, committed since: `app.js`, `notes.md`');
    expect(gitRuns(repo)).not.toContain('status');
    // The index moves elsewhere only, and is too young for its stat data: the listed files' entries in it vouch.
    repo.write('other.txt', 'other\n');
    repo.git('add', 'other.txt');
    expect(gitRuns(repo)).not.toContain('status');
    expect(resume(repo)).toContain('Uncommitted when it was written, committed since: `app.js`, `notes.md`');
    // The index alone moves: notes.md no longer tracked, its stat data the same.
    repo.git('rm', '-q', '--cached', 'notes.md');
    aged(repo, '.git/index');
    expect(gitRuns(repo)).toContain('status');
    expect(resume(repo)).toContain('still not committed: `notes.md`');
    repo.git('add', 'notes.md');
    aged(repo, '.git/index');
    expect(resume(repo)).toContain('committed since: `app.js`, `notes.md`');
    expect(gitRuns(repo)).not.toContain('status');
    // A listed file alone moves, to text of the same length.
    repo.write('app.js', 'v3\n');
    aged(repo, 'app.js');
    expect(gitRuns(repo)).toContain('status');
    expect(resume(repo)).toContain('still not committed: `app.js`');
    expect(gitRuns(repo)).not.toContain('status');
    // HEAD alone moves, back to the handoff's commit.
    repo.git('update-ref', 'refs/heads/main', 'HEAD~1');
    expect(gitRuns(repo)).toContain('status');
    expect(resume(repo)).toContain('still not committed: `app.js`, `notes.md`');
    expect(gitRuns(repo)).not.toContain('status');
  });

  it('is asked of git every time while a listed file is outside the index: the ignore rules decide it too', () => {
    const repo = makeRepo();
    repo.write('notes.md', 'left\n');
    expect(repo.handoff(['new', 'work', '--no-edit']).code).toBe(0);
    repo.git('add', '.handoff');
    repo.git('commit', '-q', '-m', 'handoff');
    aged(repo, '.git/index', 'notes.md');
    expect(resume(repo)).toContain('still not committed: `notes.md`');
    expect(gitRuns(repo)).toContain('status');
    // Ignored now: neither the file nor the index moved, and git's answer did.
    writeFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'notes.md\n');
    expect(resume(repo)).toContain('back to their committed content now');
    expect(gitRuns(repo)).toContain('status');
  });
});

describe('what differs from the handoff commit in the work tree, remembered', () => {
  it('is asked of git once while the work files and their entries in the index stay as they were, and again when one moves', () => {
    const { repo, id } = withHandoff();
    aged(repo, '.git/index', 'app.js', 'notes.md', 'README.md');
    const before = resume(repo);
    expect(gitRuns(repo)).toEqual([]);
    // Kept short: the entries in base 64, each stamp after the one before.
    const answers = (JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as { answers: Record<string, unknown> }).answers;
    const work = Object.entries(answers).find(([k]) => k.startsWith('work\0'))?.[1] as Record<string, string>;
    expect(work.entries).not.toMatch(/[0-9a-f]{40}/);
    expect(JSON.parse(work.stamps ?? '')).toHaveLength(3);
    // The index moves, the work files' entries in it do not: the handoff edited and staged.
    const file = handoffFile(id);
    repo.write(file, `${repo.read(file)}\n- one more note\n`);
    repo.git('add', file);
    expect(resume(repo)).toBe(before);
    expect(gitRuns(repo)).toEqual([]);
    // A work file changes, to text of the same length as '# project\n'.
    repo.write('README.md', '# changed\n');
    aged(repo, 'README.md');
    expect(gitRuns(repo)).toContain('diff');
    expect(resume(repo)).toContain('Files changed since then: `README.md`');
    expect(gitRuns(repo)).toEqual([]);
    // Its entry changes: staged.
    repo.git('add', 'README.md');
    expect(gitRuns(repo)).toContain('diff');
    expect(resume(repo)).toContain('Files changed since then: `README.md`');
    expect(before).not.toContain('README.md');
  });

  it("keeps the work files' stat data and index entries short, and never two different ones as one text", () => {
    const s: Stamp = [1_795_553_360_698.125, 1_795_553_360_698.125, 120, 5000];
    const lists: (Stamp | null)[][] = [
      [s, s],
      [s, null],
      [null, s],
      [s, [s[0] + 1 / 4096, s[1], 120, 5000]],
      [s, [s[0], s[1] + 1 / 4096, 120, 5000]],
      [s, [s[0], s[1], 121, 5000]],
      [s, [s[0], s[1], 120, 5001]],
      [[12.5, 3.25, 1, 1]],
      [[12.75, 3.25, 1, 1]],
    ];
    expect(new Set(lists.map(stampsText)).size).toBe(lists.length);
    expect(stampsText([s, s]).length).toBeLessThan(JSON.stringify([s, s]).length / 2);
    // Copied with their times kept: each mtime as far from its ctime as the one before, stored as 0.
    const copied: Stamp[] = [0, 1, 2].map((i) => [s[0] + i, s[1] - 86_400_000 + i, 120, 5000 + i]);
    expect(JSON.parse(stampsText(copied)).map((row: unknown[]) => row[1])).toEqual([-86_400_000 * 4096, 0, 0]);
    const blob = 'ab'.repeat(20);
    const base64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
    // A regular file whose flags are its name's length alone (11 bytes: 000b): its object id alone.
    const entries = [
      `000081a4${blob}000b`, // plain
      `000081ed${blob}000b`, // executable
      `000081a4${blob}400b`, // assume-unchanged
      `000081a4${blob}000c`, // another length
      'odd',
    ];
    const paths = ['src/main.ts', 'src/main.ts', 'src/main.ts', 'src/main.ts', 'x'];
    const compact = compactEntries(entries.join(' '), paths).split(' ');
    expect(compact).toEqual([
      `-${base64(blob).replace(/=+$/, '')}`,
      base64(entries[1]!),
      base64(entries[2]!),
      base64(entries[3]!),
      '=odd',
    ]);
    expect(compactEntries(entries[0]!, ['src/mains.ts'])).toBe(base64(entries[0]!));
    // Paths each after what it shares with the one before, read back as they were.
    const many = [
      '',
      'a',
      'src/a.ts',
      'src/b.ts',
      'src/é/ü.ts',
      'src/é/ü.tsx',
      `${'d/'.repeat(60)}x`,
      `${'d/'.repeat(60)}y`,
      'a',
    ];
    const packed = packPaths(many);
    expect(unpackPaths(packed)).toEqual(many);
    expect(packed[3]).toBe(`${String.fromCharCode(35 + 4)}b.ts`);
    const mods = Array.from({ length: 200 }, (_, i) => `src/mod${i}.ts`).sort();
    expect(packPaths(mods).join('').length).toBeLessThan(mods.join('').length / 2);
  });

  it('is asked of git every time in a repository with a submodule: its diff lives in its own repository', () => {
    const { repo } = withHandoff();
    repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.git('rev-parse', 'HEAD').trim()},sub`);
    aged(repo, '.git/index', 'app.js', 'notes.md', 'README.md');
    resume(repo);
    expect(gitRuns(repo)).toContain('diff');
    expect(gitRuns(repo)).toContain('diff');
  });
});

describe('HEAD read from git files', () => {
  const head = (repo: Repo, gitDir = path.join(repo.dir, '.git'), env: NodeJS.ProcessEnv = {}) =>
    fixedHead(gitDir, env);

  it('is what git says, for a loose, packed or detached HEAD and a linked worktree', () => {
    const repo = makeRepo();
    const rev = () => repo.git('rev-parse', 'HEAD').trim();
    expect(head(repo)).toBe(rev());
    repo.git('pack-refs', '--all');
    expect(head(repo)).toBe(rev());
    repo.commit('two');
    expect(head(repo)).toBe(rev());
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    expect(head(repo)).toBe(rev());
    const linked = path.join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'side', linked, 'main');
    const gitDir = path.resolve(linked, repo.git('-C', linked, 'rev-parse', '--git-dir').trim());
    expect(fixedHead(gitDir, {})).toBe(repo.git('rev-parse', 'main').trim());
  });

  it('is not read where git must answer', () => {
    const unborn = makeRepo({ empty: true });
    expect(head(unborn)).toBeNull();
    const repo = makeRepo();
    repo.commit('two');
    expect(head(repo, undefined, { GIT_COMMON_DIR: path.join(repo.dir, '.git') })).toBeNull();
    repo.git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/alias');
    expect(head(repo)).toBeNull();
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/main');
    expect(head(repo)).not.toBeNull();
    writeFileSync(path.join(repo.dir, '.git', 'shallow'), `${repo.git('rev-parse', 'HEAD').trim()}\n`);
    expect(head(repo)).toBeNull();
    rmSync(path.join(repo.dir, '.git', 'shallow'));
    repo.git('replace', '--graft', 'HEAD');
    expect(head(repo)).toBeNull();
    repo.git('pack-refs', '--all');
    expect(head(repo)).toBeNull();
  });
});
