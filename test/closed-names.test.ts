// A writer's view of a year's closed names, kept folder by folder (store/closed-names.ts):
// the same answers as the one sorted list of every id it stands for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ClosedNames, closedNames, Duplicate, fileOf, newest, placeOf } from '../src/store/closed-names.js';
import type { Names } from '../src/store/folder-names.js';
import { placeIn, prefixLookup, prefixLookupIn } from '../src/store/id.js';
import { namesKey } from '../src/store/names-pack.js';

const names = (ids: readonly string[]): Names => {
  const sorted = [...ids].sort();
  return {
    count: sorted.length,
    first: sorted[0],
    last: sorted[sorted.length - 1],
    all: () => sorted,
    key: () => namesKey(sorted),
  };
};

/** Every file the runs stand for, in their order. */
const filesOf = (list: ClosedNames) => list.runs.flatMap((r) => r.ids().map((i) => `${r.folder}${i}.md`));

// Ids close together (sharing long prefixes), spread over a few day folders and the flat one.
const id = fc.stringMatching(/^[0-3][01]{5}$/).map((s) => `01jx${s}0000000000000000`);
const folderOf = (i: string, flat: boolean) => (flat ? '.handoff/handoffs/' : `.handoff/handoffs/2026-01/0${i[4]}/`);

describe('closed names by folder', () => {
  it('count, find, place and list every id as one sorted list does, with a folder open or flat', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(id, fc.boolean(), fc.boolean()), { selector: ([i]) => i, maxLength: 40 }),
        id,
        (rows, probe) => {
          // [id, in the flat folder, held by the open index]
          const byFolder = new Map<string, string[]>();
          const known = new Map<string, Set<string>>();
          for (const [i, flat, open] of rows) {
            const folder = folderOf(i, flat);
            byFolder.set(folder, [...(byFolder.get(folder) ?? []), i]);
            if (open) known.set(folder, (known.get(folder) ?? new Set()).add(i));
          }
          const folders = [...byFolder.keys()].sort();
          const list = closedNames(folders, new Map([...byFolder].map(([f, ids]) => [f, names(ids)])), known);
          const closed = rows.filter(([, , open]) => !open).sort(([a], [b]) => (a < b ? -1 : 1));
          const ids = closed.map(([i]) => i);
          const files = closed.map(([i, flat]) => `${folderOf(i, flat)}${i}.md`);
          expect(list.count).toBe(ids.length);
          expect(filesOf(list)).toEqual(files);
          // By folder, as a writer's record compares them: each folder's closed ids, and their key.
          const folderOfFile = (f: string) => f.slice(0, f.lastIndexOf('/') + 1);
          const expected = new Map<string, string[]>();
          for (const f of files) expected.set(folderOfFile(f), [...(expected.get(folderOfFile(f)) ?? []), f]);
          expect([...list.folders.keys()].sort()).toEqual([...expected.keys()].sort());
          for (const [folder, n] of list.folders) {
            const want = expected.get(folder)!.map((f) => f.slice(folder.length, -3));
            expect([...n.all()]).toEqual(want);
            expect(n.key()).toBe(namesKey(want));
          }
          expect(newest(list, 3)).toEqual(files.slice(-3));
          const fileById = new Map(ids.map((i, k) => [i, files[k]]));
          for (const i of [...ids, probe]) expect(fileOf(list, i)).toBe(fileById.get(i));
          const others = [...new Set(rows.filter(([, , open]) => open).map(([i]) => i))].sort();
          const one = prefixLookupIn([(i) => placeOf(list, i), (i) => placeIn(others, i)]);
          const all = prefixLookup(rows.map(([i]) => i));
          for (const i of [...rows.map(([i]) => i), probe]) expect(one(i)).toBe(all(i));
        },
      ),
      { numRuns: 500, seed: 28 },
    );
  });

  it('refuses the same id in the flat folder and a dated one', () => {
    const i = '01jx0000000000000000000000';
    const folders = ['.handoff/handoffs/', '.handoff/handoffs/2026-01/05/'];
    const byFolder = new Map(folders.map((f) => [f, names([i, `${i.slice(0, -1)}1`])]));
    expect(() => closedNames(folders, byFolder, new Map())).toThrow(Duplicate);
  });
});
