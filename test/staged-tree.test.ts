// The tree `git add -A .handoff` would stage, computed in process (git-hooks/staged-tree.ts)
// from the index's entries, the work tree's item files and the tree ids git keeps in the
// index for folders where nothing changed (git/index-file.ts cachedTreesUnder): checked
// against what git stages and writes itself, with the kept ids used where nothing changed
// and never where something did.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stagedTree } from '../src/git-hooks/staged-tree.js';
import { indexEntries } from '../src/git/git-plumbing.js';
import { cachedTreesUnder } from '../src/git/index-file.js';
import { blobId } from '../src/store/tree.js';
import { gitEnv, makeRepo, type Repo } from './helpers.js';

const SHA1 = 20;
const ROADMAP = '.handoff/ROADMAP.md';
const file = (n: number, day: string) => `.handoff/handoffs/2026-0${day}/${String(n).padStart(4, '0')}.md`;

/** What git itself stages: `git add -A .handoff` into a copy of the index, then write-tree. */
function gitStaged(repo: Repo): string {
  const temp = path.join(repo.dir, '.git/test-index');
  writeFileSync(temp, readFileSync(path.join(repo.dir, '.git/index')));
  const env = gitEnv({ GIT_INDEX_FILE: temp });
  execFileSync('git', ['add', '-A', '--', '.handoff'], { cwd: repo.dir, env });
  return execFileSync('git', ['write-tree', '--prefix=.handoff/'], { cwd: repo.dir, env, encoding: 'utf8' }).trim();
}

/** A history in six dated folders over three months, a pin, a roadmap and another file, committed. */
function history(): Repo {
  const repo = makeRepo();
  const files: Record<string, string> = {
    '.handoff/pins/0001.md': 'pin\n',
    '.handoff/notes.txt': 'not an item\n',
    [ROADMAP]: '# roadmap\n',
  };
  for (let n = 1; n <= 30; n++) files[file(n, `${1 + (n % 3)}/0${1 + (n % 2)}`)] = `handoff ${n}\n`;
  repo.commit('history', files);
  return repo;
}

/** The work tree's item files, by blob id, as a writer that read them all has them. */
function itemBlobs(repo: Repo): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', '.handoff'], {
    cwd: repo.dir,
    encoding: 'utf8',
  });
  const read = new Map<string, string>();
  for (const p of listed.split('\n'))
    if (p.endsWith('.md') && p !== ROADMAP) {
      try {
        read.set(p, blobId(readFileSync(path.join(repo.dir, p))));
      } catch {
        // deleted from the work tree: not read
      }
    }
  return read;
}

async function computed(repo: Repo, trees?: ReadonlyMap<string, string>): Promise<string | undefined> {
  const entries = await indexEntries(repo.dir, '.handoff');
  const kept = trees ?? cachedTreesUnder(readFileSync(path.join(repo.dir, '.git/index')), '.handoff', SHA1)!;
  const roadmap = readFileSync(path.join(repo.dir, ROADMAP));
  return stagedTree(entries, itemBlobs(repo), ROADMAP, blobId(roadmap), undefined, kept);
}

describe('the tree git add -A would stage, computed in process', () => {
  it("is git's, with the index's kept tree ids or without, after changes, additions and removals", async () => {
    const repo = history();
    const kept = cachedTreesUnder(readFileSync(path.join(repo.dir, '.git/index')), '.handoff', SHA1)!;
    // A commit leaves every folder's id in the index.
    expect(kept.get('')).toBe(repo.git('rev-parse', 'HEAD:.handoff').trim());
    expect(kept.get('handoffs/2026-02/01')).toBe(repo.git('rev-parse', 'HEAD:.handoff/handoffs/2026-02/01').trim());
    expect(await computed(repo)).toBe(gitStaged(repo));
    repo.write(file(4, '2/01'), 'handoff 4, closed\n');
    repo.write(file(31, '4/09'), 'a new one in a new folder\n');
    rmSync(path.join(repo.dir, file(9, '1/02')));
    repo.write(ROADMAP, '# roadmap, rendered again\n');
    const expected = gitStaged(repo);
    expect(await computed(repo)).toBe(expected);
    expect(await computed(repo, new Map())).toBe(expected);
  });

  it("takes a folder's kept id where nothing in it changed, and never where something did", async () => {
    const changes: Record<string, (repo: Repo) => void> = {
      changed: (repo) => repo.write(file(4, '2/01'), 'handoff 4, closed\n'),
      added: (repo) => repo.write(file(40, '2/01'), 'a new one\n'),
      removed: (repo) => rmSync(path.join(repo.dir, file(4, '2/01'))),
    };
    for (const [what, change] of Object.entries(changes)) {
      const repo = history();
      change(repo);
      const expected = gitStaged(repo);
      const kept = cachedTreesUnder(readFileSync(path.join(repo.dir, '.git/index')), '.handoff', SHA1)!;
      const wrong = '0'.repeat(40);
      // The folder changed, and those around it: their kept ids are not looked at.
      for (const folder of ['', 'handoffs', 'handoffs/2026-02', 'handoffs/2026-02/01'])
        expect(await computed(repo, new Map([...kept, [folder, wrong]])), `${what}: ${folder}`).toBe(expected);
      // A folder where nothing changed: its kept id is the one in the tree.
      expect(await computed(repo, new Map([...kept, ['handoffs/2026-03', wrong]])), what).not.toBe(expected);
    }
  });

  it('reads no kept ids from an index without them, and none for a folder git marked out of date', () => {
    const repo = history();
    repo.write(file(4, '2/01'), 'handoff 4, closed\n');
    repo.git('add', file(4, '2/01'));
    const kept = cachedTreesUnder(readFileSync(path.join(repo.dir, '.git/index')), '.handoff', SHA1)!;
    for (const folder of ['', 'handoffs', 'handoffs/2026-02', 'handoffs/2026-02/01'])
      expect(kept.has(folder)).toBe(false);
    expect(kept.get('handoffs/2026-03')).toBe(repo.git('rev-parse', 'HEAD:.handoff/handoffs/2026-03').trim());
    repo.git('read-tree', '--empty');
    expect(cachedTreesUnder(readFileSync(path.join(repo.dir, '.git/index')), '.handoff', SHA1)).toEqual(new Map());
  });
});
