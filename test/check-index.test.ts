// `check` takes the stat data of the handoff files git finds as its index has them from
// the index (git/git.ts filesAsIndexed, git/index-file.ts statsUnder) instead of an lstat
// each (store/reader.ts readWorkTree): that stat data is what lstat gives, and a file
// changed since git last looked at it, or one git is told to assume unchanged, is read from
// the work tree all the same.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statsUnder } from '../src/git/index-file.js';
import { makeRepo, type Repo } from './helpers.js';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';

const SHA1 = 20;
const stampOf = (file: string) => {
  const s = lstatSync(file);
  return `${s.ctimeMs}:${s.mtimeMs}:${s.size}:${s.ino}`;
};

/** Until every file's stat data is old enough to vouch for it (store/reader.ts RACY_MS). */
function waitUntilOld(repo: Repo, files: readonly string[]): void {
  for (const f of files)
    while (Date.now() - statSync(path.join(repo.dir, f)).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
}

function setUp(): { repo: Repo; handoff: string } {
  const repo = makeRepo();
  repo.handoff(['init']);
  repo.write(pinPath(id(1)), pinText({ id: id(1) }, 'never touch src/auth\n'));
  const handoff = handoffPath(id(2));
  repo.write(handoff, handoffText({ id: id(2), goal: 'first' }));
  repo.handoff(['roadmap']);
  repo.commit('handoff set up');
  return { repo, handoff };
}

describe("the index's stat data of the files under a folder", () => {
  it('is what lstat gives for each regular file, leaving out those git does not compare', () => {
    const repo = makeRepo();
    const files = {
      '.handoff/pins/a.md': 'a\n',
      '.handoff/handoffs/2026-01/05/b.md': 'b\n',
      '.handoff/handoffs/2026-01/05/assumed.md': 'c\n',
      '.handoff/handoffs/2026-01/06/skipped.md': 'd\n',
      '.handoff-other/e.md': 'e\n',
      'outside.md': 'f\n',
    };
    repo.commit('files', files);
    repo.git('update-index', '--assume-unchanged', '.handoff/handoffs/2026-01/05/assumed.md');
    repo.git('update-index', '--skip-worktree', '.handoff/handoffs/2026-01/06/skipped.md');
    const stats = statsUnder(readFileSync(path.join(repo.dir, '.git', 'index')), '.handoff/', SHA1);
    const listed = ['.handoff/handoffs/2026-01/05/b.md', '.handoff/pins/a.md'];
    expect([...stats!.keys()].sort()).toEqual(listed);
    for (const f of listed) {
      const full = path.join(repo.dir, f);
      expect(stats!.get(f)).toEqual({ stamp: stampOf(full), ctimeMs: lstatSync(full).ctimeMs });
    }
  });

  it('is not read from an index of version 4', () => {
    const repo = makeRepo();
    repo.commit('files', { '.handoff/pins/a.md': 'a\n' });
    repo.git('update-index', '--index-version', '4');
    expect(statsUnder(readFileSync(path.join(repo.dir, '.git', 'index')), '.handoff/', SHA1)).toBeNull();
  });
});

describe('check reads from the work tree', () => {
  it('a handoff changed in place since it was committed, with stat data old enough to vouch for it', () => {
    const { repo, handoff } = setUp();
    waitUntilOld(repo, [handoff]);
    expect(repo.handoff(['check']).code).toBe(0); // the cache now knows the committed text by its stat data
    repo.write(handoff, '---\nid: "' + id(2) + '"\ngoal: [unclosed\n---\n');
    waitUntilOld(repo, [handoff]);
    const r = repo.handoff(['check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${handoff}:4: error: invalid YAML front-matter`);
  });

  it('a handoff git is told to assume unchanged, changed in place', () => {
    const { repo, handoff } = setUp();
    waitUntilOld(repo, [handoff]);
    expect(repo.handoff(['check']).code).toBe(0);
    repo.git('update-index', '--assume-unchanged', handoff);
    repo.write(handoff, '---\nid: "' + id(2) + '"\ngoal: [unclosed\n---\n');
    waitUntilOld(repo, [handoff]);
    expect(repo.git('diff-files', '--name-only')).toBe(''); // git does not look at it
    const r = repo.handoff(['check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${handoff}:4: error: invalid YAML front-matter`);
  });
});
