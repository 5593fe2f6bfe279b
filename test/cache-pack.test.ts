// The items cache stores each .handoff/ folder's entries packed (store/cache-pack.ts): what
// it gives back is exactly what was stored, keys and items, front-matter keys in the same
// order whatever the optional keys; what it does not know is stored as it is. And through
// the CLI: `list --json` from a cold cache and from the packed one print the same bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { interning, packedMeta, unpackMeta } from '../src/store/cache-meta.js';
import { packShard } from '../src/store/cache-pack.js';
import { unpackShard } from '../src/store/cache-unpack.js';
import { parseHandoff } from '../src/store/handoff.js';
import { parsePin } from '../src/store/pin.js';
import type { CachedItem } from '../src/store/tree.js';
import { handoffText, id, pinText } from './fixtures-items.js';
import { handoffFile, itemFiles, makeRepo } from './helpers.js';

const metas = [
  parseHandoff(handoffText({ id: id(1) }), 'a.md').meta,
  parseHandoff(
    handoffText({
      id: id(2),
      goal: 'a goal with "quotes", a colon: and ünïcode',
      step: 'the step',
      status: 'superseded',
      branch: null,
      base: 'a'.repeat(40),
      head: 'b'.repeat(40),
      parent: id(1),
      superseded_by: id(3),
      finished: '2026-01-06T10:00:00.000Z',
      landed: 'c'.repeat(40),
      files: [
        { path: 'src/a.ts', change: 'modified', insertions: 0, deletions: 7, state: 'committed' },
        { path: 'src/b.ts', change: 'renamed', from: 'src/old b.ts', state: 'staged' },
        { path: 'logo.png', change: 'added', binary: true, state: 'unstaged' },
        { path: 'node_modules/', change: 'added', files: 3000, state: 'untracked' },
      ],
    }),
    'b.md',
  ).meta,
];

const folder = '.handoff/handoffs/2026-01/06/';
/** An id made at `ms`, as the id source makes them (48 bits of time in Crockford base32, then randomness). */
const idAt = (ms: number, n: number) => {
  let time = '';
  for (let t = ms, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = '0123456789abcdefghjkmnpqrstvwxyz'[t % 32] + time;
  return `${time}${String(n).padStart(16, '0')}`;
};
const blob = (n: number) => n.toString(16).padStart(40, '0');
const stat = (n: number) => `s${1_767_225_600_000 + n}.5:${1_767_225_600_000 + n}.5:1234:${n}`;

/** The entries as unpackShard gives them back after a trip through JSON, items as JSON. */
function roundTrip(entries: Map<string, CachedItem>): Map<string, string> {
  const shard = unpackShard(JSON.parse(JSON.stringify(packShard(entries))));
  return new Map([...shard.keys()].map((k) => [k, JSON.stringify(shard.item(k))]));
}

describe('the packed folder of the items cache', () => {
  it('gives back every key and item, front-matter byte for byte as JSON, whatever the optional keys', () => {
    const created = { ...metas[0]!, created: '2026-01-06T10:00:00.000Z' }; // not the id's time
    const entries = new Map<string, CachedItem>([
      [`${folder}${id(1)}.md\0${stat(1)}`, { meta: metas[0]!, body: 'the body\n', blob: blob(1) }],
      [`${folder}${id(1)}.md\0${blob(1)}`, { meta: metas[0]!, body: 'the body\n', blob: blob(1) }],
      [`${folder}${id(2)}.md\0${stat(2)}`, { meta: metas[1]! }],
      [`${folder}${id(2)}.md\0${blob(3)}`, { meta: { ...metas[1]!, goal: 'staged' }, blob: blob(3) }],
      [
        `${folder}${id(4)}.md\0${stat(4)}`,
        { meta: created, misnamed: true, problem: { message: 'misnamed', line: 2 } },
      ],
      [`${folder}notes.txt\0${blob(5)}`, { problem: { message: 'unreadable' }, blob: blob(5) }],
      // The same item from two different texts (a closed handoff's body edited): two rows.
      [`${folder}${id(6)}.md\0${stat(6)}`, { meta: metas[0]!, blob: blob(6) }],
      [`${folder}${id(6)}.md\0${blob(7)}`, { meta: metas[0]!, blob: blob(7) }],
      // Stat data whose change time is not its modification time, and stat data of another shape.
      [`${folder}${id(9)}.md\0s1767225600007.25:1767225600001.5:99:12345`, { meta: metas[0]! }],
      [`${folder}${id(10)}.md\0s7:1:2`, { meta: metas[0]! }],
    ]);
    const back = roundTrip(entries);
    expect([...back.keys()].sort()).toEqual([...entries.keys()].sort());
    for (const [key, item] of entries) expect(back.get(key), key).toBe(JSON.stringify(item));
    // A file's work-tree entry and its index entry, the same but for the blob id, are one row.
    expect(packShard(entries).rows).toHaveLength(9);
    // A key by a file's whole text is never stored (the cache keys it by the text's blob id).
    const text = `${folder}${id(8)}.md\0\0---\nid: x\n---\nthe text\n`;
    const withText = new Map([...entries, [text, { meta: metas[0]!, body: 'the text\n' }]]);
    expect(packShard(withText)).toEqual(packShard(entries));
  });

  it('gives back handoffs that list the same files each as stored, and packs what it unpacked into the same folder', () => {
    const shared = metas[1]!.files;
    const entries = new Map<string, CachedItem>(
      [1, 2, 3].map((n) => [
        `${folder}${id(n)}.md\0${stat(n)}`,
        // The same files, one of them with other counts, in another order.
        { meta: { ...metas[1]!, id: id(n), files: n === 3 ? [{ ...shared[0]!, deletions: 8 }, ...shared] : shared } },
      ]),
    );
    const stored = JSON.parse(JSON.stringify(packShard(entries)));
    const shard = unpackShard(stored);
    for (const [key, item] of entries) expect(JSON.stringify(shard.item(key)), key).toBe(JSON.stringify(item));
    // Packed again from what was unpacked (no round-trip check then): the same folder.
    const again = new Map([...entries.keys()].map((k) => [k, shard.item(k)!]));
    expect(JSON.parse(JSON.stringify(packShard(again)))).toEqual(stored);
  });

  it('stores a front-matter once for a work-tree entry and an index entry that differ only by the blob id', () => {
    const one = new Map<string, CachedItem>([[`${folder}${id(2)}.md\0${stat(2)}`, { meta: metas[1]! }]]);
    const both = new Map<string, CachedItem>([...one, [`${folder}${id(2)}.md\0${blob(2)}`, { meta: metas[1]! }]]);
    const size = (m: Map<string, CachedItem>) => JSON.stringify(packShard(m)).length;
    expect(size(both) - size(one)).toBeLessThan(70);
    const back = roundTrip(both);
    expect(back.get(`${folder}${id(2)}.md\0${blob(2)}`)).toBe(JSON.stringify({ meta: metas[1]!, blob: blob(2) }));
    expect(back.get(`${folder}${id(2)}.md\0${stat(2)}`)).toBe(JSON.stringify({ meta: metas[1]! }));
  });

  it('gives back a folder of more values than one digit counts', () => {
    const entries = new Map<string, CachedItem>();
    for (let n = 1; n <= 60; n++) {
      // Every other one written as `new` writes it: its id made a few milliseconds before `created`.
      const created = '2026-01-06T10:00:00.000Z';
      const meta = {
        ...metas[1]!,
        id: n % 2 ? idAt(Date.parse(created) - n, n) : id(n),
        goal: `goal ${n}`,
        created,
        files: [{ path: `src/f${n}.ts`, change: 'modified' as const, insertions: n, state: 'committed' as const }],
      };
      entries.set(`${folder}${id(n)}.md\0${stat(n)}`, { meta, blob: blob(n) });
    }
    const packed = packShard(entries);
    expect(packed.table.length).toBeGreaterThan(2 * 91);
    // Half the handoffs' created times are stored as milliseconds after their id's, not as text.
    expect(packed.table.filter((v) => v === '2026-01-06T10:00:00.000Z')).toHaveLength(1);
    expect(packed.rows.filter((r) => String(r[2]).includes('!'))).toHaveLength(30);
    const back = roundTrip(entries);
    for (const [key, item] of entries) expect(back.get(key), key).toBe(JSON.stringify(item));
  });

  it("keeps the front-matter in the parser's key order, and is smaller than the items", () => {
    for (const meta of metas) {
      const entries = new Map<string, CachedItem>([[`${folder}${meta.id}.md\0${stat(1)}`, { meta }]]);
      const item = roundTrip(entries).get(`${folder}${meta.id}.md\0${stat(1)}`)!;
      expect(Object.keys(JSON.parse(item).meta)).toEqual(Object.keys(meta));
      expect(JSON.stringify(packShard(entries)).length).toBeLessThan(JSON.stringify([...entries]).length);
    }
  });

  it('packs a front-matter only when it comes back as it is, whatever was changed in it', () => {
    // A small deterministic generator, so that a failure names the case again.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const odd: unknown[] = [
      null,
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      0,
      1.5,
      true,
      false,
      '',
      'x',
      [],
      {},
      new Date(0),
      [1],
    ];
    const changes: Array<(m: Record<string, unknown>) => void> = [
      (m) => {
        const keys = Object.keys(m);
        m[keys[random(keys.length)]!] = odd[random(odd.length)];
      },
      (m) => {
        const keys = Object.keys(m);
        delete m[keys[random(keys.length)]!];
      },
      (m) => {
        m[['step', 'superseded_by', 'finished', 'landed', 'extra', '0', '__proto__'][random(7)]!] = 'v';
      },
      (m) => {
        // One key moved to the end.
        const keys = Object.keys(m);
        const k = keys[random(keys.length)]!;
        const v = m[k];
        delete m[k];
        m[k] = v;
      },
      (m) => {
        const files = m.files as Array<Record<string, unknown>>;
        if (files.length === 0) return;
        const f = { ...files[random(files.length)]! };
        const keys = Object.keys(f);
        const k = keys[random(keys.length)] ?? 'path';
        if (random(2) === 0) f[k] = odd[random(odd.length)];
        else {
          const v = f[k];
          delete f[k];
          f[k] = v;
        }
        files[random(files.length)] = f;
      },
      (m) => {
        (m.files as unknown[]).push(odd[random(odd.length)]);
      },
    ];
    let packed = 0;
    for (let n = 0; n < 3000; n++) {
      const meta = structuredClone(metas[n % metas.length]!) as unknown as Record<string, unknown>;
      if (n % 2 === 0) meta.created = '2026-01-06T10:00:00.000Z';
      for (let k = random(3); k > 0; k--) changes[random(changes.length)]!(meta);
      const { table, intern } = interning();
      const out = packedMeta(meta as never, intern);
      if (typeof out !== 'string') {
        expect(out, JSON.stringify(meta)).toBe(meta); // stored as it is
        continue;
      }
      packed++;
      const back = unpackMeta(out, JSON.parse(JSON.stringify(table)));
      expect(JSON.stringify(back), `case ${n}: ${JSON.stringify(meta)}`).toBe(JSON.stringify(meta));
    }
    // Every unchanged one is packed, and so are many of those changed in a way that comes back.
    expect(packed).toBeGreaterThan(1000);
    for (const meta of metas) expect(typeof packedMeta(meta, interning().intern)).toBe('string');
  });

  it('stores what it does not know as it is: a pin, an unknown key', () => {
    const pin = parsePin(pinText({ id: id(4) }, 'never touch the auth module'), 'p.md').meta;
    const odd = { ...metas[0]!, extra: 'kept' };
    const entries = new Map<string, CachedItem>([
      [`.handoff/pins/${id(4)}.md\0${stat(1)}`, { meta: pin, body: 'never touch the auth module\n' }],
      [`.handoff/pins/${id(5)}.md\0${stat(2)}`, { meta: odd as unknown as typeof pin }],
    ]);
    const back = roundTrip(entries);
    for (const [key, item] of entries) expect(back.get(key), key).toBe(JSON.stringify(item));
  });

  it("holds a month's days in one shard, storing no name for a file in its id's day, and the others' whole", () => {
    const month = '.handoff/handoffs/2026-01/';
    const day = (d: number, n: number) => idAt(Date.UTC(2026, 0, d, 23, 59, 59, 999) - n, n);
    const entries = new Map<string, CachedItem>();
    // Files of three days, each in its id's day (the first and last days of the month among them).
    for (const [d, n] of [
      [1, 1],
      [6, 2],
      [6, 3],
      [31, 4],
    ] as const)
      entries.set(`${month}${String(d).padStart(2, '0')}/${day(d, n)}.md\0${stat(n)}`, {
        meta: { ...metas[1]!, id: day(d, n) },
        blob: blob(n),
      });
    // One in another day than its id's, one named otherwise, one whose id is of the next month.
    entries.set(`${month}07/${day(6, 5)}.md\0${blob(5)}`, { meta: { ...metas[1]!, id: day(6, 5) }, blob: blob(5) });
    entries.set(`${month}08/notes.md\0${stat(6)}`, { meta: { ...metas[1]!, id: day(8, 6) }, misnamed: true });
    const next = idAt(Date.UTC(2026, 1, 1), 7);
    entries.set(`${month}01/${next}.md\0${stat(7)}`, { meta: { ...metas[1]!, id: next } });
    const packed = packShard(entries);
    expect(packed.folder).toBe(month);
    // Only the three files not where their id says carry a name.
    expect(packed.rows.filter((r) => r[4] !== undefined && r[4] !== 0)).toHaveLength(3);
    expect(JSON.stringify(packed)).not.toContain(`"06/`);
    const back = roundTrip(entries);
    expect([...back.keys()].sort()).toEqual([...entries.keys()].sort());
    for (const [key, item] of entries) expect(back.get(key), key).toBe(JSON.stringify(item));
  });

  it("finds a work-tree file's entry by its path and stat data as by its key, and nothing for other stat data", () => {
    const entries = new Map<string, CachedItem>();
    for (let n = 1; n <= 5; n++)
      entries.set(`${folder}${id(n)}.md\0${stat(n)}`, { meta: { ...metas[1]!, id: id(n) }, blob: blob(n) });
    entries.set(`${folder}${id(6)}.md\0${blob(6)}`, { meta: { ...metas[1]!, id: id(6) }, blob: blob(6) });
    const shard = unpackShard(JSON.parse(JSON.stringify(packShard(entries))));
    for (let n = 1; n <= 5; n++) {
      const path = `${folder}${id(n)}.md`;
      const i = shard.statRow(path, stat(n).slice(1));
      expect(i, path).toBe(shard.row(`${path}\0${stat(n)}`));
      // The same item whichever way it was asked for.
      expect(shard.itemAt(i!, true)).toBe(shard.item(`${path}\0${stat(n)}`));
      expect(JSON.stringify(shard.itemAt(i!, true))).toBe(JSON.stringify(entries.get(`${path}\0${stat(n)}`)));
      expect(shard.statRow(path, stat(n + 1).slice(1))).toBeUndefined();
      expect(shard.statRow(`${folder}${id(n + 10)}.md`, stat(n).slice(1))).toBeUndefined();
    }
    // A file known only by its blob id has no entry by stat data.
    expect(shard.statRow(`${folder}${id(6)}.md`, stat(6).slice(1))).toBeUndefined();
    // Every row a walk found counts as found, and a row not found does not.
    const rows = new Set([1, 2, 3, 4, 5].map((n) => shard.statRow(`${folder}${id(n)}.md`, stat(n).slice(1))!));
    const sixth = new Map([[`${folder}${id(6)}.md\0${stat(7)}`, {}]]);
    expect(shard.allFound(sixth, rows)).toBe(true);
    expect(shard.allFound(new Map(), rows)).toBe(false);
    expect(shard.allFound(sixth, new Set([...rows].slice(1)))).toBe(false);
    // A path with two entries by stat data (a file changed while a long-lived process read it) finds both.
    const path = `${folder}${id(1)}.md`;
    const two = new Map<string, CachedItem>([
      [`${path}\0${stat(1)}`, { meta: { ...metas[1]!, id: id(1) } }],
      [`${path}\0${stat(2)}`, { meta: { ...metas[1]!, id: id(1), goal: 'changed' } }],
    ]);
    const both = unpackShard(JSON.parse(JSON.stringify(packShard(two))));
    expect(both.size).toBe(2);
    expect([...both.keys()].sort()).toEqual([...two.keys()].sort());
    for (const n of [1, 2]) {
      const i = both.statRow(path, stat(n).slice(1));
      expect(JSON.stringify(both.itemAt(i!, true))).toBe(JSON.stringify(two.get(`${path}\0${stat(n)}`)));
    }
  });

  it('reads a shard of another shape, or a damaged row, as no entries, never a wrong one', () => {
    for (const bad of [
      null,
      [],
      { folder: 1 },
      { folder, stat: '', table: [null], rows: [[7]] },
      { folder, stat: '', table: [], rows: 3 },
    ])
      expect(unpackShard(bad).size).toBe(0);
  });

  it('list --json prints the same from a cold cache and from the packed one', () => {
    const repo = makeRepo();
    const a = id(5);
    const b = id(6);
    repo.write(
      handoffFile(a),
      handoffText({
        id: a,
        status: 'superseded',
        superseded_by: b,
        files: [{ path: 'src/x.ts', change: 'renamed', from: 'src/y.ts', insertions: 2, state: 'committed' }],
      }),
    );
    repo.write(handoffFile(b), handoffText({ id: b, parent: a, step: 'next' }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoffs');
    const cold = repo.handoff(['list', '--json']);
    expect(cold.code).toBe(0);
    const stored = itemFiles(repo.dir).map((f) => readFileSync(f, 'utf8'));
    expect(stored.join('')).toContain('"src/y.ts"');
    expect(stored.join('')).not.toContain('"insertions"');
    expect(stored.join('')).not.toContain('"path"');
    const warm = repo.handoff(['list', '--json']);
    expect(warm.stdout).toBe(cold.stdout);
    expect(JSON.parse(warm.stdout).handoffs.map((h: { id: string }) => h.id)).toEqual([b, a]);
  });
});
