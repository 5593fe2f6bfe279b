// The index's entries for a few paths, read from git's index file (git/index-file.ts),
// checked against what git itself says of them (`git ls-files --stage --debug`) in real
// indexes: a conflict's stages, an intent-to-add entry (version 3's extended flags), a
// path longer than the twelve bits of an entry's name length, names that need UTF-8, and
// null for what is not read this way (version 4, a split index, a damaged file); and every
// entry under a folder, as `git ls-files -s` lists them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesIn, entriesOutside, entriesUnder } from '../src/git/index-file.js';
import { makeRepo, type Repo } from './helpers.js';

const indexOf = (repo: Repo) => path.join(repo.dir, '.git', 'index');
/** The entries as a session start reads them: the file's bytes, then entriesIn; null when it cannot be read. */
function indexEntries(file: string, paths: string[], hashBytes: number): string[][] | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return null;
  }
  return entriesIn(data, paths, hashBytes);
}
const SHA1 = 20;

/** What git says of each path's entries: object id and stage, and the stat data it keeps. */
function gitSays(repo: Repo, p: string): string[] {
  const out = repo.git('ls-files', '--stage', '--debug', '--', `:(literal)${p}`);
  const entry =
    /^\d+ ([0-9a-f]+) (\d)\t.*\n {2}ctime: .*\n {2}mtime: (\d+):(\d+)\n {2}dev: \d+\tino: (\d+)\n.*\n {2}size: (\d+)/gm;
  return [...out.matchAll(entry)].map(
    ([, oid, stage, s, ns, ino, size]) => `${oid} ${stage} ${s}:${ns} ${size} ${ino}`,
  );
}

/** The same facts, from the entry's bytes as the reader gives them. */
function read(entry: string): string {
  const b = Buffer.from(entry, 'hex');
  const flags = b.readUInt16BE(40 + SHA1);
  const mtime = `${b.readUInt32BE(8)}:${b.readUInt32BE(12)}`;
  return `${b.toString('hex', 40, 40 + SHA1)} ${(flags >> 12) & 3} ${mtime} ${b.readUInt32BE(36)} ${b.readUInt32BE(20)}`;
}

describe("the index's entries for a few paths", () => {
  it('are what git says, for every stage of a conflict, an intent-to-add entry and long or UTF-8 names', () => {
    const repo = makeRepo();
    repo.commit('base', { 'a.txt': 'a\n', 'c.txt': 'base\n', 'dir/é ü.txt': 'x\n' });
    repo.git('checkout', '-q', '-b', 'other');
    repo.commit('theirs', { 'c.txt': 'theirs\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('ours', { 'c.txt': 'ours\n' });
    expect(() => repo.git('merge', '-q', 'other')).toThrow();
    repo.write('ita.txt', 'intent\n');
    repo.git('add', '-N', 'ita.txt');
    // Longer than an entry's twelve bits of name length: git needs no file for it.
    const long = `${'d'.repeat(200)}/`.repeat(21) + 'long.txt';
    repo.write('.git/long-blob', 'long\n');
    const blob = repo.git('hash-object', '-w', '.git/long-blob').trim();
    repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
    const paths = ['a.txt', 'c.txt', 'dir/é ü.txt', 'ita.txt', long, 'missing.txt', 'dir'];
    const entries = indexEntries(indexOf(repo), paths, SHA1);
    expect(entries).not.toBeNull();
    // A folder is no entry (git lists what is under it): none.
    expect(entries!.map((list) => list.map(read))).toEqual(paths.map((p) => (p === 'dir' ? [] : gitSays(repo, p))));
    expect(entries!.map((list) => list.length)).toEqual([1, 3, 1, 1, 1, 0, 0]);
    // Version 3 is the one git writes for intent-to-add entries: read all the same.
    expect(readFileSync(indexOf(repo)).readUInt32BE(4)).toBe(3);
  });

  it('change with the entry, and only with it', () => {
    const repo = makeRepo();
    repo.commit('base', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const before = indexEntries(indexOf(repo), ['a.txt'], SHA1);
    repo.write('b.txt', 'changed\n');
    repo.git('add', 'b.txt');
    expect(indexEntries(indexOf(repo), ['a.txt'], SHA1)).toEqual(before);
    repo.write('a.txt', 'changed\n');
    repo.git('add', 'a.txt');
    expect(indexEntries(indexOf(repo), ['a.txt'], SHA1)).not.toEqual(before);
  });

  it('are not read from version 4, a split index or a damaged file', () => {
    const repo = makeRepo();
    repo.commit('base', { 'a.txt': 'a\n' });
    const index = indexOf(repo);
    const whole = readFileSync(index);
    expect(entriesIn(whole, ['a.txt'], SHA1)?.[0]).toHaveLength(1);
    expect(entriesIn(whole.subarray(0, whole.length - 30), ['a.txt'], SHA1)).toBeNull();
    expect(entriesIn(Buffer.from('not an index at all'), ['a.txt'], SHA1)).toBeNull();
    repo.git('update-index', '--index-version', '4');
    expect(indexEntries(index, ['a.txt'], SHA1)).toBeNull();
    repo.git('update-index', '--index-version', '2');
    repo.git('update-index', '--split-index');
    expect(indexEntries(index, ['a.txt'], SHA1)).toBeNull();
    repo.git('update-index', '--no-split-index');
    expect(indexEntries(index, ['a.txt'], SHA1)?.[0]).toHaveLength(1);
    writeFileSync(index, '');
    expect(indexEntries(index, ['a.txt'], SHA1)).toBeNull();
    expect(indexEntries(path.join(repo.dir, 'no-such-index'), ['a.txt'], SHA1)).toBeNull();
  });

  it('outside a folder are the files git tracks there, and none when one is a submodule or they are too many', () => {
    const repo = makeRepo();
    repo.commit('base', { 'a.txt': 'a\n', '.handoff/h.md': 'h\n', '.handoffs.txt': 'x\n', 'z/é.txt': 'z\n' });
    const data = () => readFileSync(indexOf(repo));
    const tracked = repo.git('-c', 'core.quotePath=false', 'ls-files', '--', ':(exclude).handoff').trim().split('\n');
    const outside = entriesOutside(data(), '.handoff/', 10, SHA1);
    expect(outside?.paths).toEqual(tracked);
    expect(entriesOutside(data(), '.handoff/', tracked.length - 1, SHA1)).toBeNull();
    // Asked of one buffer with the folder skipped (a session start asks both questions of
    // one read of the index): the same entries; a path under the folder is still found.
    const once = data();
    const asked = ['a.txt', '.handoffs.txt', 'z/é.txt', 'missing.txt'];
    expect(entriesOutside(once, '.handoff/', 10, SHA1)).toEqual(outside);
    expect(entriesIn(once, asked, SHA1, '.handoff/')).toEqual(entriesIn(data(), asked, SHA1));
    expect(entriesIn(once, ['.handoff/h.md', 'a.txt'], SHA1, '.handoff/')?.map((e) => e.length)).toEqual([1, 1]);
    expect(entriesIn(once, ['.handoff/h.md'], SHA1, '.handoff/')).toEqual(entriesIn(data(), ['.handoff/h.md'], SHA1));
    // The key moves with an entry outside, not with one inside.
    repo.write('.handoff/h.md', 'changed\n');
    repo.git('add', '.handoff/h.md');
    expect(entriesOutside(data(), '.handoff/', 10, SHA1)).toEqual(outside);
    repo.write('a.txt', 'changed\n');
    repo.git('add', 'a.txt');
    expect(entriesOutside(data(), '.handoff/', 10, SHA1)?.key).not.toBe(outside?.key);
    repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.git('rev-parse', 'HEAD').trim()},sub`);
    expect(entriesOutside(data(), '.handoff/', 10, SHA1)).toBeNull();
  });
  it('under a folder are what `git ls-files -s` lists there: modes, stages of a conflict, links and long or UTF-8 names', () => {
    const repo = makeRepo();
    repo.commit('base', {
      '.handoff/c.md': 'base\n',
      '.handoff/x/é ü.md': 'x\n',
      '.handoffs.txt': 'y\n',
      'a.txt': 'a\n',
    });
    repo.git('checkout', '-q', '-b', 'other');
    repo.commit('theirs', { '.handoff/c.md': 'theirs\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('ours', { '.handoff/c.md': 'ours\n' });
    expect(() => repo.git('merge', '-q', 'other')).toThrow();
    const blob = repo.git('rev-parse', 'HEAD:a.txt').trim();
    const head = repo.git('rev-parse', 'HEAD').trim();
    const long = `.handoff/${`${'d'.repeat(200)}/`.repeat(21)}long.md`;
    for (const info of [
      `100755,${blob},.handoff/run.sh`,
      `120000,${blob},.handoff/link`,
      `160000,${head},.handoff/sub`,
      `100644,${blob},${long}`,
    ])
      repo.git('update-index', '--add', '--cacheinfo', info);
    const listed = repo
      .git('ls-files', '-s', '-z', '--full-name', '--', ':/.handoff/')
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [, mode, id, stage, file] = /^(\d+) ([0-9a-f]+) (\d)\t(.*)$/s.exec(line)!;
        return { mode, id, stage, path: file };
      });
    expect(listed.map((e) => e.stage)).toContain('3');
    expect(listed.some((e) => e.path === long)).toBe(true);
    expect(entriesUnder(readFileSync(indexOf(repo)), '.handoff/', SHA1)).toEqual(listed);
    expect(entriesUnder(readFileSync(indexOf(repo)), 'nothing/', SHA1)).toEqual([]);
    repo.git('update-index', '--index-version', '4');
    expect(entriesUnder(readFileSync(indexOf(repo)), '.handoff/', SHA1)).toBeNull();
  });
});
