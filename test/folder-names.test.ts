// The names of the handoff files by folder, kept by the folder's stat data
// (store/folder-names.ts): what a writer lists of a year's dated folders.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderNames, type Names, readAhead } from '../src/store/folder-names.js';
import { namesKey } from '../src/store/names-pack.js';
import { RACY_MS } from '../src/store/reader.js';

const A = '.handoff/handoffs/2026-01/05/';
const B = '.handoff/handoffs/2026-01/06/';

function setup() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'folder-names-'));
  for (const [folder, names] of [
    [A, ['01a.md', '01b.md', '.hidden.md', 'notes.txt']],
    [B, []],
  ] as const) {
    mkdirSync(path.join(root, folder), { recursive: true });
    for (const n of names) writeFileSync(path.join(root, folder, n), 'x');
  }
  return { root, file: path.join(root, 'names.json') };
}
/** A clock far enough ahead that every folder is old enough to vouch for its listing. */
const later = () => Date.now() + RACY_MS + 60_000;
/**
 * Waits until the file system's clock has passed the folders' ctimes (its ticks are coarser
 * than a test's steps), so that a change made next shows in their stat data.
 */
function tickAfter(root: string, folders: string[]): void {
  const newest = Math.max(...folders.map((f) => lstatSync(path.join(root, f)).ctimeMs));
  const probe = path.join(root, 'probe');
  for (;;) {
    writeFileSync(probe, 'x');
    if (lstatSync(probe).ctimeMs > newest) return;
  }
}
const plain = (m: Map<string, Names>) => Object.fromEntries([...m].map(([f, n]) => [f, n.all()]));

describe('folder names', () => {
  it("keeps each folder's item names by its stat data, and reads them back as listed", () => {
    const { root, file } = setup();
    const first = folderNames(root, [A, B], file, later());
    expect(plain(first)).toEqual({ [A]: ['01a', '01b'], [B]: [] });
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    // Stored short: after `.handoff/handoffs/`, the names as what they begin with and the rest of each.
    expect(Object.keys(stored.dirs)).toEqual(['2026-01/05/', '2026-01/06/']);
    expect(stored.dirs['2026-01/05/'].slice(3)).toEqual(['01', 'a/b']);
    expect(stored.dirs['2026-01/06/']).toHaveLength(3);
    // Read back from the file, not listed: a name only the file holds comes back.
    stored.dirs['2026-01/05/'][4] = 'a/b/c';
    writeFileSync(file, JSON.stringify(stored));
    expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01a', '01b', '01c'], [B]: [] });
  });

  it('keeps ids in base 91, and reads them back, first, last and count, whatever they share', () => {
    const { root, file } = setup();
    const C = '.handoff/handoffs/2026-01/07/';
    const D = '.handoff/handoffs/2026-01/08/';
    // Seeded ids: a day's (the same first characters), and one alone (all 26 shared but the last).
    let seed = 30;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
    const tail = (n: number) => Array.from({ length: n }, () => crockford[Math.floor(next() * 32)]).join('');
    const day = Array.from({ length: 40 }, () => `01kj${tail(22)}`).sort();
    day.push('01kjzzzzzzzzzzzzzzzzzzzzzz', '01kj0000000000000000000000');
    day.sort();
    for (const [folder, ids] of [
      [C, day],
      [D, ['01kj00000000000000000000zz']],
    ] as const) {
      mkdirSync(path.join(root, folder), { recursive: true });
      for (const n of ids) writeFileSync(path.join(root, folder, `${n}.md`), 'x');
    }
    const listed = folderNames(root, [C, D], file, later());
    expect(plain(listed)).toEqual({ [C]: day, [D]: ['01kj00000000000000000000zz'] });
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const [, , , common, rests, length] = stored.dirs['2026-01/07/'];
    expect([common, length]).toEqual(['01kj', 22]);
    expect(rests.length).toBe(day.length * 19); // 22 characters in 19 digits, no separator
    expect(stored.dirs['2026-01/08/'].slice(3)).toEqual(['01kj00000000000000000000z', 'B', 1]); // 31 as one digit
    const back = folderNames(root, [C, D], file, later());
    expect(plain(back)).toEqual({ [C]: day, [D]: ['01kj00000000000000000000zz'] });
    const names = back.get(C)!;
    expect([names.count, names.first, names.last]).toEqual([day.length, day[0], day[day.length - 1]]);
    // The key a writer's record compares: the same names kept or listed, another with one name fewer.
    expect(names.key()).toBe(listed.get(C)!.key());
    expect(names.key()).toBe(namesKey(day));
    expect(names.key()).not.toBe(namesKey(day.slice(1)));
    expect(back.get(D)!.key()).toBe(namesKey(['01kj00000000000000000000zz']));
  });

  it('lists again a folder that gained or lost a file, and drops a folder gone', () => {
    const { root, file } = setup();
    folderNames(root, [A, B], file, later());
    tickAfter(root, [A, B]);
    writeFileSync(path.join(root, B, '02a.md'), 'x');
    rmSync(path.join(root, A, '01a.md'));
    expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01b'], [B]: ['02a'] });
    rmSync(path.join(root, B), { recursive: true });
    expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01b'] });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).dirs)).toEqual(['2026-01/05/']);
  });

  it('keeps nothing of a folder changed too recently to vouch for its listing', () => {
    const { root, file } = setup();
    expect(plain(folderNames(root, [A, B], file))).toEqual({ [A]: ['01a', '01b'], [B]: [] });
    expect(() => readFileSync(file)).toThrow(); // nothing to keep: nothing written
  });

  it('lists every folder when the file is damaged or of another format', () => {
    const { root, file } = setup();
    const { ctimeMs, mtimeMs, ino } = lstatSync(path.join(root, A));
    for (const text of [
      '{not json',
      JSON.stringify({ format: 0, dirs: { [A]: [0, 0, 0, 'z'] } }),
      // The format before: whole paths and times, the names whole; this folder's stat data, and another name.
      JSON.stringify({ format: 2, dirs: { [A]: [ctimeMs, mtimeMs, ino, '01z'] } }),
    ]) {
      writeFileSync(file, text);
      expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01a', '01b'], [B]: [] });
    }
  });
  it('read ahead (a writer, while git answers), still lists again a folder changed after, and is taken once', () => {
    const { root, file } = setup();
    folderNames(root, [A, B], file, later());
    readAhead(file);
    tickAfter(root, [A, B]);
    writeFileSync(path.join(root, B, '02a.md'), 'x');
    // The file as read ahead: a name only it holds comes back for the folder that did not change.
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    stored.dirs['2026-01/05/'][4] = 'a/b/c';
    writeFileSync(file, JSON.stringify(stored));
    expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01a', '01b'], [B]: ['02a'] });
    // Taken: the next run reads the file as it is now.
    writeFileSync(file, JSON.stringify(stored));
    expect(plain(folderNames(root, [A, B], file, later()))).toEqual({ [A]: ['01a', '01b', '01c'], [B]: ['02a'] });
  });
  it("gives each folder's names sorted, whatever order the folder lists them in, and keeps them so", () => {
    const { root, file } = setup();
    const names = ['01zz', '01c', '01q', '01a5', '01m', '01a', '01x'];
    for (const n of names) writeFileSync(path.join(root, B, `${n}.md`), 'x');
    const sorted = [...names].sort();
    const listed = folderNames(root, [B], file, later()).get(B)!;
    expect([listed.all(), listed.count, listed.first, listed.last]).toEqual([sorted, 7, '01a', '01zz']);
    const kept = folderNames(root, [B], file, later()).get(B)!; // read back from the file
    expect([kept.all(), kept.count, kept.first, kept.last]).toEqual([sorted, 7, '01a', '01zz']);
  });
});
