// The one cache: a single file in the git directory whatever commands ran, keyed so that
// an entry can never be stale, and ignored (never trusted) when it is damaged or old.
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handoffText, id } from './fixtures-items.js';
import { handoffFile, itemEntries, itemFiles, itemKeys, makeRepo, type Repo } from './helpers.js';

const ok = (repo: Repo, args: string[]) => {
  const r = repo.handoff(args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
};

const caches = (repo: Repo) =>
  readdirSync(path.join(repo.dir, '.git')).filter((n) => /^handoff.*cache.*\.json$/.test(n));
const goals = (repo: Repo) =>
  (JSON.parse(ok(repo, ['list', '--json']).stdout) as { handoffs: Array<{ goal: string }> }).handoffs.map(
    (h) => h.goal,
  );

describe('the cache', () => {
  it('is one file in the git directory after any mix of commands', () => {
    const repo = makeRepo();
    ok(repo, ['init', '--hooks']);
    ok(repo, ['pin', 'never touch the auth module']);
    ok(repo, ['new', 'first goal', '--no-edit']);
    ok(repo, ['list']);
    ok(repo, ['resume']);
    ok(repo, ['roadmap']);
    ok(repo, ['check']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoffs');
    ok(repo, ['new', 'second goal', '--no-edit']);
    ok(repo, ['done']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'done');
    ok(repo, ['pins']);
    ok(repo, ['hook', 'claude-session-start']);
    expect(caches(repo)).toEqual(['handoff-cache.json']);
  });

  it('cannot go stale: an edit that keeps size and modification time is seen', () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    ok(repo, ['new', 'goal aaaa', '--no-edit']);
    const [name] = repo.files('.handoff/handoffs');
    const file = path.join(repo.dir, '.handoff/handoffs', name!);
    const when = 1_767_225_600; // whole seconds: set back exactly
    utimesSync(file, when, when);
    expect(goals(repo)).toEqual(['goal aaaa']);
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('goal aaaa', 'goal bbbb'));
    utimesSync(file, when, when);
    expect(statSync(file).size).toBe(before.size);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(goals(repo)).toEqual(['goal bbbb']);
    expect(ok(repo, ['resume']).stdout).toContain('goal bbbb');
  });

  it('ignores a damaged or old-format cache file and answers right', () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    ok(repo, ['new', 'the real goal', '--no-edit']);
    const cacheFile = path.join(repo.dir, '.git/handoff-cache.json');
    const [name] = repo.files('.handoff/handoffs');
    const stat = statSync(path.join(repo.dir, '.handoff/handoffs', name!));
    const id = path.basename(name!, '.md');
    // What the earlier stat-keyed cache held, matching the file's size and time exactly.
    const meta = {
      id,
      goal: 'a wrong goal',
      status: 'done',
      created: '2026-01-01T00:00:00.000Z',
      author: '',
      branch: 'main',
      base: null,
      head: null,
      parent: null,
      files: [],
    };
    for (const text of [
      '{not json',
      JSON.stringify({ version: 1, entries: { [name!]: { size: stat.size, mtimeMs: stat.mtimeMs, meta } } }),
      JSON.stringify({ format: 2, version: 'other', items: {} }),
    ]) {
      writeFileSync(cacheFile, text);
      expect(goals(repo)).toEqual(['the real goal']);
      expect(ok(repo, ['resume']).stdout).toContain('the real goal');
    }
    expect(itemKeys(repo.dir).length).toBeGreaterThan(0);
    expect(caches(repo)).toEqual(['handoff-cache.json']);
  });
});

describe('the blob id beside the stat data', () => {
  it("a writer that read every file keeps each one's blob id beside its stat data, as git computes it", () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    // A closed handoff alone in its dated folder: no write of the run below touches that folder.
    const rel = handoffFile(id(1));
    repo.write(rel, handoffText({ id: id(1), status: 'done', finished: '2026-01-06T10:00:00.000Z' }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoffs');
    const file = path.join(repo.dir, rel);
    // Stat data vouches for a file once it is older than the clock's resolution allows (reader.ts RACY_MS):
    // wait for that, on the file's own change time.
    while (Date.now() - statSync(file).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    // A listing keys it by its stat data; a writer that reads every handoff (`done <id>` looks
    // the id up among them all) then adds the blob id to that entry. `new` reads no closed
    // handoff it does not show (store/history-view.ts), so it has none to add.
    ok(repo, ['list']);
    ok(repo, ['new', 'next', '--no-edit']);
    const open = JSON.parse(ok(repo, ['list', '--status', 'open', '--json']).stdout).handoffs[0].id as string;
    ok(repo, ['done', open]);
    const st = statSync(file);
    const key = `${rel}\0s${st.ctimeMs}:${st.mtimeMs}:${st.size}:${st.ino}`;
    const entry = itemEntries(repo.dir).get(key);
    expect(entry, rel).toBeDefined();
    expect(entry!.blob).toBe(repo.git('hash-object', '--', rel).trim());
  });
});

describe('a file too new for its stat data', () => {
  it('is keyed by its blob id, never its text, and that entry serves its stat data once they vouch', () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    const rel = handoffFile(id(1));
    const body = '## Goal\n\nthe words of a closed body\n';
    repo.write(
      rel,
      handoffText({ id: id(1), goal: 'a closed goal', status: 'done', finished: '2026-01-06T10:00:00.000Z' }, body),
    );
    const blob = repo.git('hash-object', '--', rel).trim();
    expect(goals(repo)).toEqual(['a closed goal']);
    // Read at once: keyed by the blob id of its text; nothing of the file's text is stored but its values.
    expect(itemKeys(repo.dir).filter((k) => k.startsWith(rel))).toEqual([`${rel}\0${blob}`]);
    const stored = itemFiles(repo.dir)
      .map((f) => readFileSync(f, 'utf8'))
      .join('');
    expect(stored).not.toContain('the words of a closed body');
    expect(stored).not.toContain('goal:');
    expect(ok(repo, ['show', id(1)]).stdout).toContain('the words of a closed body');
    const file = path.join(repo.dir, rel);
    while (Date.now() - statSync(file).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    // Its stat data now vouches for it: the entry found by its blob id is stored under them, with the blob id.
    expect(goals(repo)).toEqual(['a closed goal']);
    const st = statSync(file);
    const entry = itemEntries(repo.dir).get(`${rel}\0s${st.ctimeMs}:${st.mtimeMs}:${st.size}:${st.ino}`);
    expect(entry?.blob).toBe(blob);
    expect(ok(repo, ['show', id(1)]).stdout).toContain('the words of a closed body');
  });
});

describe("an open handoff's body", () => {
  it('is not kept by a work-tree read, and the pre-commit hook reads it from the index for the roadmap', () => {
    const repo = makeRepo();
    ok(repo, ['init', '--hooks']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'init');
    const rel = handoffFile(id(1));
    repo.write(
      rel,
      handoffText(
        { id: id(1), goal: 'the open goal' },
        '## Goal\n\nwork\n\n## Next steps\n\n- the step only its body holds\n',
      ),
    );
    repo.git('add', '--', rel);
    // A work-tree read right after the write: keyed by the text's blob id, which is the index's.
    expect(goals(repo)).toEqual(['the open goal']);
    const blob = repo.git('rev-parse', `:${rel}`).trim();
    const entry = itemEntries(repo.dir).get(`${rel}\0${blob}`);
    expect(entry?.meta?.id).toBe(id(1));
    expect(entry?.body).toBeUndefined();
    repo.git('commit', '-q', '-m', 'handoff');
    expect(repo.git('show', 'HEAD:.handoff/ROADMAP.md')).toContain('the step only its body holds');
    // A reader of the whole body reads it whole, whatever the index's entry keeps (tree.ts kept).
    expect(ok(repo, ['show', id(1)]).stdout).toContain('work');
    // The next commit's roadmap from that part, as from the whole; every branch's view reads it too.
    repo.write('src/a.ts', 'export {};\n');
    repo.write(rel, `${repo.read(rel)}- and one more\n`);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'more');
    expect(repo.git('show', 'HEAD:.handoff/ROADMAP.md')).toContain('and one more');
    expect(ok(repo, ['roadmap', '--all']).stdout).toContain('the open goal');
  });
});
