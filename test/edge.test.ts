// Bad input and unusual repository states, each through the built CLI.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemFiles, listFiles, makeRepo, runHandoff, tempDir } from './helpers.js';

const idOf = (out: string) => out.match(/([0-9a-z]{26})/)![1]!;

describe('text that YAML and Markdown would like to eat', () => {
  const hostile = [
    ': # --- \' " |',
    '- leading dash',
    'before\n---\nafter',
    'x'.repeat(10_000),
    'emoji 😀 and ü and 中文',
    '```\n## Next steps\n- not really\n```',
    '# looks like a heading',
    'trailing spaces   ',
  ];

  it('goals survive verbatim in front-matter and do not break the sections', () => {
    const repo = makeRepo();
    for (const goal of hostile) {
      const made = repo.handoff(['new', '--no-edit', '--', goal]);
      expect(made.stderr).not.toContain('error');
      expect(made.code).toBe(0);
      const shown = JSON.parse(repo.handoff(['show', idOf(made.stdout), '--json']).stdout);
      expect(shown.goal).toBe(goal);
      expect(shown.sections.map((s: { title: string }) => s.title)).toEqual([
        'Goal',
        'Completed',
        'Current state',
        'In progress',
        'Next steps',
        'Open questions',
        'Decisions',
        'Tried and abandoned',
        'References',
      ]);
      const resume = JSON.parse(repo.handoff(['resume', idOf(made.stdout), '--json']).stdout);
      expect(resume.goal).toBe(goal);
      expect(resume.prompt).toContain(goal);
    }
  });

  it('pins keep their bytes from an argument, a file and stdin', () => {
    const repo = makeRepo();
    const fromArg = repo.handoff(['pin', hostile[0]!]);
    expect(repo.handoff(['pin', '- a bullet']).stderr).toContain("goes after '--': handoff pin -- '- a bullet'");
    expect(fromArg.code).toBe(0);
    const text = 'line one  \n\n```sh\nrm -rf / # never\n```\nünïcödé 😀\n\n';
    repo.write('constraint.txt', text);
    expect(repo.handoff(['pin', '--file', 'constraint.txt']).code).toBe(0);
    expect(repo.handoff(['pin'], { input: 'from stdin, no newline' }).code).toBe(0);
    const pins = JSON.parse(repo.handoff(['pins', '--json']).stdout).pins;
    expect(pins.map((p: { text: string }) => p.text)).toEqual([hostile[0], text, 'from stdin, no newline']);
    for (const p of pins) expect(repo.read(p.file).endsWith(p.text)).toBe(true);
    // The same text again is recognised, not duplicated.
    expect(repo.handoff(['pin', hostile[0]!]).stdout).toContain('Already pinned');
    expect(repo.files('.handoff/pins')).toHaveLength(3);
  });

  it('refuses NUL, empty text and non-UTF-8 with one clear line', () => {
    const repo = makeRepo();
    const nul = repo.handoff(['pin'], { input: 'a\0b' });
    expect(nul.code).toBe(1);
    expect(nul.stderr).toBe(
      'handoff: the pin text contains a NUL byte; expected text (git would treat the file as binary)\n',
    );
    expect(repo.handoff(['pin', '  ']).stderr).toContain('the pin text is empty');
    repo.write('latin1.txt', '');
    writeFileSync(path.join(repo.dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const latin = repo.handoff(['pin', '--file', 'latin1.txt']);
    expect(latin.stderr).toBe('handoff: latin1.txt is not UTF-8 text; expected a UTF-8 text file\n');
    expect(repo.handoff(['pin', '--file', 'missing.txt']).stderr).toBe(
      'handoff: missing.txt: cannot read it (no such file)\n',
    );
    expect(repo.files('.handoff/pins')).toEqual([]);
  });
});

describe('usage and lookup errors', () => {
  it('exit 2 for usage errors, 1 for failures, with one line', () => {
    const repo = makeRepo();
    const unknownOption = repo.handoff(['list', '--bogus']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/^handoff: Unknown option '--bogus'.*handoff list --help/);
    expect(repo.handoff(['new']).code).toBe(2);
    expect(repo.handoff(['new', 'a', 'b']).stderr).toContain('quote text that has spaces');
    const unknownCommand = repo.handoff(['lsit']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toBe(
      "handoff: unknown command 'lsit'. Did you mean 'list'? (handoff --help lists the commands)\n",
    );
    expect(repo.handoff(['list', '--status', 'closed']).stderr).toBe(
      "handoff: --status must be one of open, done, superseded; got 'closed'\n",
    );
  });

  it('unknown ids and ambiguous prefixes', () => {
    const repo = makeRepo();
    const a = idOf(repo.handoff(['new', 'a']).stdout);
    const b = idOf(repo.handoff(['new', 'b']).stdout);
    let common = 0;
    while (a[common] === b[common]) common++;
    const ambiguous = repo.handoff(['show', a.slice(0, common)]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/is ambiguous: it matches 2 handoffs/);
    expect(repo.handoff(['show', 'zzzz']).stderr).toBe(
      "handoff: no handoff matches 'zzzz' (handoff list shows them)\n",
    );
    expect(repo.handoff(['unpin', 'zzzz']).code).toBe(1);
  });

  it('names a file a person broke, and still lists the rest', () => {
    const repo = makeRepo();
    const good = repo.handoff(['new', 'good one']).stdout.trim();
    const broken = '.handoff/handoffs/01m8000000000000000000000a.md';
    repo.write(broken, '---\ngoal: [unclosed\n---\n');
    const list = repo.handoff(['list']);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain('good one');
    expect(list.stderr).toMatch(
      /^handoff: warning: skipped \.handoff\/handoffs\/01m8000000000000000000000a\.md: invalid YAML front-matter at line \d/,
    );
    // One line number, the file's own, wherever the problem is shown.
    repo.write(broken, '---\nid: "01m8000000000000000000000a"\ngoal: [unclosed\nstatus: open\n---\n');
    const listed = repo.handoff(['list']).stderr;
    expect(listed).toContain('invalid YAML front-matter at line 4: Flow sequence');
    expect(listed.match(/line \d+/g)).toEqual(['line 4']);
    const checked = repo.handoff(['check']).stdout + repo.handoff(['check']).stderr;
    expect(checked).toContain(`${broken}:4: error: invalid YAML front-matter at line 4:`);
    expect(checked).not.toMatch(/column|line [0-35-9]/);
    repo.write(broken, '---\nid: "01m8000000000000000000000a"\nstatus: "open"\n---\n');
    const show = repo.handoff(['show', '01m8000000']);
    expect(show.stderr).toBe(
      'handoff: .handoff/handoffs/01m8000000000000000000000a.md: front-matter \'goal\' must be the goal text, e.g. goal: "add team billing"; it is missing\n',
    );
    expect(repo.read(good)).toContain('good one');
  });

  it('refuses outside a git repository', () => {
    const dir = tempDir();
    const result = runHandoff(dir, ['init']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^handoff: not inside a git work tree \(searched upwards from .*\); run 'git init'/);
    expect(existsSync(path.join(dir, '.handoff'))).toBe(false);
  });

  it('an editor that empties the draft aborts with nothing written; one that edits is kept', () => {
    const repo = makeRepo();
    const editor = path.join(repo.dir, '..', 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\n: > "$1"\n');
    chmodSync(editor, 0o755);
    const aborted = repo.handoff(['new', 'x', '--edit'], { env: { GIT_EDITOR: editor } });
    expect(aborted.code).toBe(1);
    expect(aborted.stderr).toContain('emptied in the editor; nothing written');
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    writeFileSync(
      editor,
      '#!/bin/sh\nsed -i.bak "s/^## Decisions$/## Decisions\\n\\n- Use SQLite, because it needs no server./" "$1"\n',
    );
    const kept = repo.handoff(['new', 'x', '--edit'], { env: { GIT_EDITOR: editor } });
    expect(kept.code).toBe(0);
    const text = repo.read(kept.stdout.trim());
    expect(text).toContain('## Decisions\n\n- Use SQLite, because it needs no server.');
    expect(text).not.toContain('<!--');
    const failing = repo.handoff(['new', 'x', '--edit'], { env: { GIT_EDITOR: 'false' } });
    expect(failing.stderr).toBe("handoff: the editor 'false' exited with status 1; nothing written\n");
  });
});

describe('repository states', () => {
  it('a repository with no commits yet', () => {
    const repo = makeRepo({ empty: true });
    repo.write('a.txt', 'a\n');
    repo.git('add', 'a.txt');
    repo.write('b.txt', 'b\n');
    const made = repo.handoff(['new', 'first steps']);
    expect(made.code).toBe(0);
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('base: null\nhead: null');
    expect(text).toMatch(
      /path: "a.txt"\n {4}change: "added"\n {4}insertions: 1\n {4}deletions: 0\n {4}state: "staged"/,
    );
    expect(text).toMatch(/path: "b.txt"\n {4}change: "added"\n {4}state: "untracked"/);
    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('written before the first commit');
  });

  it("a parent whose commit is gone: a warning, and the work since the default branch's merge-base", () => {
    const repo = makeRepo();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('feature work', { 'src/feature.ts': 'f\n' });
    const first = repo.handoff(['new', 'first', '--no-edit']);
    expect(first.code).toBe(0);
    const file = first.stdout.trim();
    const gone = 'deadbeef'.repeat(5);
    repo.write(file, repo.read(file).replace(/^head: .*$/m, `head: "${gone}"`));
    const next = repo.handoff(['new', 'second', '--no-edit']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(
      `the parent's commit ${gone.slice(0, 12)} is gone (rebased?); using the default branch instead`,
    );
    const text = repo.read(next.stdout.trim());
    expect(text).toContain(`base: "${repo.git('rev-parse', 'main').trim()}"`);
    expect(text).toContain('- feature work (');
  });

  it('untracked files anywhere but .handoff/, names with pathspec magic taken literally, ignored ones left out', () => {
    const repo = makeRepo();
    repo.commit('ignore', { '.gitignore': 'ignored.txt\n', 'src/kept.ts': 'k\n' });
    for (const f of ['*.md', ':odd', '[x].txt', 'ignored.txt', 'src/new.ts', '.handoff/notes.txt'])
      repo.write(f, 'u\n');
    for (let i = 0; i < 25; i++) repo.write(`gen/f${i}.txt`, 'g\n');
    for (const f of ['small/a.txt', 'small/deep/b.txt']) repo.write(f, 's\n');
    const made = repo.handoff(['new', 'untracked work']);
    expect(made.code).toBe(0);
    const text = repo.read(made.stdout.trim());
    const untracked = [...text.matchAll(/path: "([^"]+)"\n(?: {4}.*\n)*? {4}state: "untracked"/g)].map((m) => m[1]);
    // A wholly untracked folder past untracked_dir_files (20) is one entry, as git status shows it;
    // a small one is listed file by file.
    expect(untracked.sort()).toEqual([
      '*.md',
      ':odd',
      '[x].txt',
      'gen/',
      'small/a.txt',
      'small/deep/b.txt',
      'src/new.ts',
    ]);
  });

  it('detached HEAD, a subdirectory, a path with spaces and non-ASCII names', () => {
    const repo = makeRepo({ name: 'my repö with spaces' });
    repo.commit('files', { 'sub dir/naïve file.ts': 'x\n' });
    repo.git('checkout', '-q', '--detach');
    repo.write('sub dir/naïve file.ts', 'y\n');
    const made = repo.handoff(['new', 'detached work'], { cwd: path.join(repo.dir, 'sub dir') });
    expect(made.code).toBe(0);
    // Named by its repository path, the same from every subdirectory.
    expect(made.stdout.trim()).toMatch(/^\.handoff\/handoffs\/\d{4}-\d{2}\/\d{2}\/[0-9a-z]{26}\.md$/);
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('branch: null');
    expect(text).toContain('path: "sub dir/naïve file.ts"');
    const resume = repo.handoff(['resume'], { cwd: path.join(repo.dir, 'sub dir') });
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('`sub dir/naïve file.ts`');
    expect(repo.handoff(['list']).stdout).toContain('(detached)');
  });

  it('a linked worktree writes into its own checkout', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const other = path.join(repo.dir, '..', 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'side', other);
    writeFileSync(path.join(other, 'side.ts'), 'side\n');
    const made = runHandoff(other, ['new', 'work in the worktree']);
    expect(made.code).toBe(0);
    expect(listFiles(path.join(other, '.handoff/handoffs'))).toHaveLength(1);
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    expect(runHandoff(other, ['resume']).stdout).toContain('`side.ts`');
  });

  it('counts from --since and refuses a revision that does not exist', () => {
    const repo = makeRepo();
    const first = repo.commit('one', { 'one.ts': '1\n' });
    repo.commit('two', { 'two.ts': '2\n' });
    const made = repo.handoff(['new', 'since one', '--since', first]);
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('path: "two.ts"');
    expect(text).not.toContain('path: "one.ts"');
    const bad = repo.handoff(['new', 'x', '--since', 'no-such-rev']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("handoff: --since 'no-such-rev' is not a commit in this repository\n");
  });

  it('reports what happened since: commits, changed files, missing files, a rebased-away head', () => {
    const repo = makeRepo();
    repo.git('checkout', '-q', '-b', 'work');
    repo.commit('add files', { 'keep.ts': '1\n', 'drop.ts': '1\n' });
    const file = repo.handoff(['new', 'go on']).stdout.trim();
    repo.git('rm', '-q', 'drop.ts');
    repo.commit('later work', { 'keep.ts': '2\n' });
    const prompt = repo.handoff(['resume']).stdout;
    expect(prompt).toMatch(/- 1 commit since it was written \(at [0-9a-f]{12}\):\n {2}- [0-9a-f]{7} later work/);
    expect(prompt).toContain('Files changed since then: `drop.ts`, `keep.ts`');
    expect(prompt).toContain('Listed files that no longer exist: `drop.ts`');
    writeFileSync(path.join(repo.dir, file), repo.read(file).replace(/head: "[0-9a-f]+"/, `head: "${'d'.repeat(40)}"`));
    expect(repo.handoff(['resume']).stdout).toContain(`Its commit ${'d'.repeat(12)} is not in this repository`);
  });

  it('never overwrites: a scoped pin reaches resume only when its scope is in play', () => {
    const repo = makeRepo();
    repo.handoff(['pin', '--scope', 'db/**', 'migrations are append-only']);
    // A folder named without a glob is everything under it.
    repo.handoff(['pin', '--scope', 'db', 'schema changes need a review']);
    repo.handoff(['pin', 'always run the tests']);
    expect(repo.handoff(['pin', '--scope', '../x', 'bad']).code).toBe(2);
    repo.write('src/app.ts', 'x\n');
    repo.handoff(['new', 'app work']);
    let prompt = repo.handoff(['resume']).stdout;
    expect(prompt).toContain('always run the tests');
    expect(prompt).not.toContain('append-only');
    expect(prompt).not.toContain('need a review');
    mkdirSync(path.join(repo.dir, 'db'));
    repo.write('db/001.sql', 'create table t();\n');
    repo.handoff(['new', 'db work']);
    prompt = repo.handoff(['resume']).stdout;
    expect(prompt).toContain('### Pin');
    expect(prompt).toContain('migrations are append-only');
    expect(prompt).toContain('schema changes need a review');
  });

  it('unpin retires and keeps the file; supersedes replaces', () => {
    const repo = makeRepo();
    const first = idOf(repo.handoff(['pin', 'use tabs']).stdout);
    const second = repo.handoff(['pin', 'use spaces', '--supersedes', first.slice(0, 10)]);
    expect(second.stdout).toContain(`superseding ${first}`);
    expect(JSON.parse(repo.handoff(['pins', '--json']).stdout).pins.map((p: { text: string }) => p.text)).toEqual([
      'use spaces',
    ]);
    const all = JSON.parse(repo.handoff(['pins', '--all', '--json']).stdout).pins;
    expect(all.map((p: { status: string }) => p.status)).toEqual(['superseded', 'active']);
    const unpinned = repo.handoff(['unpin', idOf(second.stdout), '--reason', 'style guide changed']);
    expect(unpinned.code).toBe(0);
    expect(repo.handoff(['pins']).stdout).toContain('No active pins');
    expect(repo.files('.handoff/pins')).toHaveLength(2);
    expect(repo.handoff(['unpin', idOf(second.stdout)]).stdout).toContain('already retired');
  });

  it('pin --supersedes refuses a pin already superseded or retired, and writes nothing', () => {
    const repo = makeRepo();
    const first = idOf(repo.handoff(['pin', 'v1']).stdout);
    const second = idOf(repo.handoff(['pin', 'v2', '--supersedes', first]).stdout);
    const again = repo.handoff(['pin', 'v2b', '--supersedes', first]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`handoff: pin ${first} is already superseded by ${second}; supersede that one\n`);
    repo.handoff(['unpin', second]);
    const retired = repo.handoff(['pin', 'v3', '--supersedes', second]);
    expect(retired.code).toBe(1);
    expect(retired.stderr).toBe(`handoff: pin ${second} is retired; nothing to supersede\n`);
    expect(repo.files('.handoff/pins')).toHaveLength(2);
    expect(
      JSON.parse(repo.handoff(['pins', '--all', '--json']).stdout).pins.map((p: { status: string }) => p.status),
    ).toEqual(['superseded', 'retired']);
  });
});

describe('the parse cache in the git directory', () => {
  it('follows hand edits, survives corruption, and is never committed', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'original goal']).stdout.trim();
    expect(repo.handoff(['list']).stdout).toContain('original goal');
    expect(itemFiles(repo.dir).length).toBeGreaterThan(0);
    // Same size, different text: the modification time alone must invalidate the entry.
    writeFileSync(path.join(repo.dir, file), repo.read(file).replace('original goal', 'editted! goal'));
    expect(repo.handoff(['list']).stdout).toContain('editted! goal');
    for (const f of [...itemFiles(repo.dir), path.join(repo.dir, '.git', 'handoff-open.json')])
      writeFileSync(f, '{not json');
    expect(repo.handoff(['list']).stdout).toContain('editted! goal');
    expect(repo.handoff(['resume']).stdout).toContain('editted! goal');
    expect(repo.git('status', '--porcelain', '--ignored')).not.toContain('handoff-');
  });
});
