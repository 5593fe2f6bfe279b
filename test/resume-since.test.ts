// "Since the handoff" after a file listed as uncommitted is committed, renamed, put back,
// or left untracked: each said as it is, never "still uncommitted" about a committed file.
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type Repo } from './helpers.js';
import { codeList, sinceFacts } from '../src/resume/since.js';
import { code } from '../src/store/markdown.js';

const since = (stdout: string) => stdout.slice(stdout.indexOf('## Since the handoff'));

/** A repository on a branch `work` off main, with `files` committed there. */
function onWorkBranch(files: Record<string, string>) {
  const repo = makeRepo();
  repo.git('checkout', '-q', '-b', 'work');
  repo.commit('work files', files);
  return repo;
}
/** The handoff file `handoff new` writes for the work since main. */
const writeHandoff = (repo: Repo) => repo.handoff(['new', 'work', '--no-edit', '--since', 'main']).stdout.trim();

describe('since the handoff', () => {
  it('says a file committed since is committed, and an untracked one still is not', () => {
    const repo = onWorkBranch({ 'src/a.ts': 'a\n', 'src/back.ts': 'b\n' });
    repo.write('src/a.ts', 'a2\n');
    repo.write('src/back.ts', 'b2\n');
    repo.write('src/new.ts', 'n\n');
    writeHandoff(repo);
    repo.git('add', 'src/a.ts');
    repo.git('commit', '-q', '-m', 'commit a');
    repo.git('checkout', '--', 'src/back.ts');
    const text = since(repo.handoff(['resume']).stdout);
    expect(text).toContain('Uncommitted when it was written, committed since: `src/a.ts`');
    expect(text).toContain('Uncommitted when it was written, and still not committed: `src/new.ts`');
    expect(text).toContain('back to their committed content now (changes put back or discarded): `src/back.ts`');
    expect(text).not.toMatch(/still not committed:[^\n]*src\/a\.ts/);
  });

  it('names a rename since instead of calling the file gone', () => {
    const repo = onWorkBranch({ 'src/r.ts': 'export const r = 1;\n'.repeat(20) });
    writeHandoff(repo);
    repo.git('mv', 'src/r.ts', 'src/s.ts');
    repo.git('commit', '-q', '-m', 'rename');
    const text = since(repo.handoff(['resume']).stdout);
    expect(text).toContain('Renamed since: `src/r.ts` -> `src/s.ts`');
    expect(text).not.toContain('no longer exist');
  });
});

describe('since the handoff, after a rebase', () => {
  it("counts no copy of the handoff's own commits as new, and names what came in", () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('set up handoff');
    repo.git('checkout', '-q', '-b', 'feat');
    repo.commit('add g', { 'g.ts': 'g\n' });
    repo.handoff(['new', 'feature', '--no-edit']);
    repo.commit('feature handoff');
    repo.git('checkout', '-q', 'main');
    repo.commit('add m', { 'm.ts': 'm\n' });
    repo.git('checkout', '-q', 'feat');
    repo.git('rebase', '-q', 'main');
    const text = since(repo.handoff(['resume']).stdout);
    expect(text).toMatch(/1 commit since it was written \(at [0-9a-f]{12}\):\n {2}- [0-9a-f]{7} add m\n/);
    expect(text).not.toContain('add g');
  });
});

describe('since the handoff, after a large commit', () => {
  it("names the handoff's own files first and 20 in all, counts the rest, and still applies a pin scoped to one of them", () => {
    const repo = onWorkBranch({ 'src/own.ts': 'own\n' });
    repo.write('src/own.ts', 'own 2\n');
    repo.git('commit', '-qam', 'own work');
    repo.handoff(['new', 'work', '--no-edit', '--since', 'main']);
    repo.handoff(['pin', '--scope', 'zz/**', 'zz is generated: never edit it by hand']);
    repo.handoff(['pin', '--scope', 'docs/**', 'nothing here changed']);
    const many = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`lib/f${String(i).padStart(3, '0')}.ts`, `${i}\n`]),
    );
    repo.commit('a large commit', { ...many, 'src/own.ts': 'own 3\n', 'zz/last.ts': 'z\n' });
    const head = repo.git('log', '-1', '--format=%H', 'HEAD~1').trim().slice(0, 12);

    const text = repo.handoff(['resume']).stdout;
    const line = text.split('\n').find((l) => l.startsWith('- Files changed since then: '))!;
    expect(line).toMatch(/^- Files changed since then: `src\/own\.ts`, `lib\/f000\.ts`, /);
    expect(line.match(/`[^`]+\.ts`/g)).toHaveLength(20);
    expect(line).toContain(`and 282 more (\`git diff --name-only ${head}\` lists them all)`);
    expect(text).toContain('zz is generated: never edit it by hand'); // zz/last.ts is past the 20 named

    const json = JSON.parse(repo.handoff(['resume', '--json']).stdout);
    expect(json.since.changed_files).toHaveLength(20);
    expect(json.since.changed_count).toBe(302);
    const pins = json.pins.map((p: { text: string }) => p.text.trim());
    expect(pins).toContain('zz is generated: never edit it by hand');
    expect(pins).not.toContain('nothing here changed'); // a scope no changed file is in: not in play

    // The next handoff lists the 300 files as their folder, and check accepts it.
    const next = repo.handoff(['new', 'next', '--no-edit']);
    expect(next.code).toBe(0);
    const files = JSON.parse(repo.handoff(['resume', '--json']).stdout).files;
    expect(files).toContainEqual({
      path: 'lib/',
      change: 'added',
      insertions: 300,
      deletions: 0,
      files: 300,
      state: 'committed',
    });
    expect(files.length).toBeLessThan(10);
    expect(repo.handoff(['resume']).stdout).toContain('- `lib/` (300 files added, +300 -0, committed)');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'the handoff');
    expect(repo.handoff(['check']).code).toBe(0);
  });
});

describe('since the handoff, asked of the listed paths', () => {
  it('takes listed names literally, and an odd listed path (beyond a symbolic link) changes nothing else', () => {
    const repo = onWorkBranch({ 'src/a.ts': 'a\n', 'real/inner.ts': 'i\n' });
    repo.write('src/[ab].ts', 'glob-like name\n');
    repo.write('src/b.ts', 'matched by the glob, not listed\n');
    const file = writeHandoff(repo);
    repo.git('add', 'src/b.ts');
    repo.git('commit', '-q', '-m', 'b');
    const text = since(repo.handoff(['resume']).stdout);
    expect(text).toContain('Uncommitted when it was written, and still not committed: `src/[ab].ts`');
    expect(text).toContain('Uncommitted when it was written, committed since: `src/b.ts`');
    // A hand-edited list naming a path beyond a symbolic link: git answers for the others.
    symlinkSync('real', path.join(repo.dir, 'link'));
    repo.write(
      file,
      repo
        .read(file)
        .replace('files:\n', 'files:\n  - path: "link/inner.ts"\n    change: "modified"\n    state: "unstaged"\n'),
    );
    expect(repo.git('ls-files', '--', 'link/inner.ts').length).toBe(0);
    const again = since(repo.handoff(['resume']).stdout);
    expect(again).toContain('Uncommitted when it was written, and still not committed: `src/[ab].ts`');
  });
});

describe('sinceFacts', () => {
  it('sorts each uncommitted file into exactly one outcome', () => {
    const facts = sinceFacts(
      [
        { path: 'a', change: 'modified', state: 'unstaged' },
        { path: 'b', change: 'added', state: 'untracked' },
        { path: 'c', change: 'modified', state: 'staged' },
        { path: 'd', change: 'modified', state: 'committed' },
      ],
      {
        head: 'h',
        commits: [],
        commitCount: 1,
        committed: [{ path: 'a', change: 'modified' }],
        differing: ['a', 'd', '.handoff/x.md'],
        uncommittedNow: ['b'],
        missing: [],
      },
    );
    expect(facts).toMatchObject({
      committedSince: ['a'],
      stillUncommitted: ['b'],
      putBack: ['c'],
      changedFiles: ['d'],
    });
  });
});

describe('codeList', () => {
  it('is each path as inline code, comma-separated, whether or not one holds a space or a backtick', () => {
    const lists = [
      [],
      ['src/a.ts'],
      ['src/a.ts', 'lib/é.ts', 'docs/x.md'],
      ['src/a.ts', 'has space.ts', 'z.ts'],
      ['a`b.ts', 'c.ts'],
      ['tab\there.ts'],
      ['non\u00a0breaking.ts', 'x.ts'],
    ];
    for (const paths of lists) expect(codeList(paths)).toBe(paths.map(code).join(', '));
    expect(codeList(['a.ts', 'b c.ts'])).toBe('`a.ts`, `b c.ts`');
  });
});
