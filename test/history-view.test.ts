// A writer reads of the history only what the roadmap shows (store/history-view.ts): the
// roadmap it writes is the one `handoff roadmap` renders from every file, and the tree it
// leaves is recorded as validated, asked of git against the last record.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';
import { handoffFile, itemKeys, makeRepo, type Repo } from './helpers.js';

const ok = (repo: Repo, args: string[]) => {
  const r = repo.handoff(args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
};

/** Thirty closed handoffs in one chain (odd ones in the first, flat layout), an open one (flat) continuing it, a pin. */
function history(repo: Repo): void {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 30; n++) {
    const meta = {
      id: id(n),
      parent: n > 1 ? id(n - 1) : null,
      ...(n < 30
        ? { status: 'superseded' as const, superseded_by: id(n + 1) }
        : { status: 'done' as const, finished: '2026-01-06T10:00:00.000Z' }),
    };
    files[n % 2 ? handoffPath(id(n)) : handoffFile(id(n))] = handoffText(meta);
  }
  files[handoffPath(id(31))] = handoffText({ id: id(31), parent: id(30) });
  files[pinPath(id(40))] = pinText({ id: id(40) }, 'never touch the auth module');
  for (const [f, text] of Object.entries(files)) repo.write(f, text);
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'a history');
}

/** The tree id on the record's first line (the one the hook's shell reads). */
const record = (repo: Repo) =>
  readFileSync(path.join(repo.dir, '.git/handoff-validated'), 'utf8').split('\n')[0]!.split(' ')[1];

describe("a writer's view of the history", () => {
  it('new writes the roadmap every file gives, and records the tree it leaves', () => {
    const repo = makeRepo();
    ok(repo, ['init', '--hooks']);
    history(repo);
    expect(record(repo)).toBe(repo.git('rev-parse', 'HEAD:.handoff').trim()); // the pre-commit hook's
    ok(repo, ['new', 'the next step', '--no-edit']);
    const written = repo.read('.handoff/ROADMAP.md');
    expect(written).toContain('31 finished or superseded');
    expect(written).toContain('and 11 older handoffs');
    ok(repo, ['roadmap', '--check']);
    expect(repo.read('.handoff/ROADMAP.md')).toBe(written);
    repo.git('add', '-A', '.handoff');
    expect(record(repo)).toBe(repo.git('write-tree', '--prefix=.handoff/').trim());
  });

  it('a shown closed handoff edited in place into an open one is seen: the whole tree is read', () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    history(repo);
    const file = path.join(repo.dir, handoffFile(id(28)));
    // The open index trusts a folder's stat data once it is older than the clock's resolution
    // allows (open-index.ts): wait for that, then let a session start keep it.
    while (Date.now() - statSync(path.dirname(file)).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    ok(repo, ['resume']);
    // Written in place (same file, same folder): the open index does not see it, the roadmap must.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace(/^status: .*$/m, 'status: open')
        .replace(/^superseded_by: .*\n/m, ''),
    );
    expect(readFileSync(file, 'utf8')).toMatch(/^status: open$/m);
    ok(repo, ['new', 'the next step', '--no-edit']);
    const written = repo.read('.handoff/ROADMAP.md');
    expect(written).toContain('30 finished or superseded');
    ok(repo, ['roadmap', '--check']);
  });

  it("keeps the items cache's entries of the closed handoffs it did not read", () => {
    const repo = makeRepo();
    ok(repo, ['init']);
    history(repo);
    // Stat data vouches for a file once it is older than the clock's resolution allows (reader.ts RACY_MS).
    const last = path.join(repo.dir, handoffFile(id(30)));
    while (Date.now() - statSync(last).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    ok(repo, ['list']); // every file keyed by its stat data
    const before = statKeyed(repo);
    for (let n = 1; n <= 30; n++) expect(before, String(n)).toContain(n % 2 ? handoffPath(id(n)) : handoffFile(id(n)));
    ok(repo, ['new', 'the next step', '--no-edit']);
    const after = statKeyed(repo);
    for (const file of before) expect(after, file).toContain(file);
  });
});

/** The files the items cache keeps an entry for by their stat data. */
function statKeyed(repo: Repo): string[] {
  return itemKeys(repo.dir)
    .filter((k) => k.includes('\0s'))
    .map((k) => k.slice(0, k.indexOf('\0')));
}
