// A folder of the items cache packed again after a run (store/cache-repack.ts) reads back
// exactly what packShard of the same entries reads back, pairs a file's keys into rows as it
// does, and keeps the rows the run left as they were; a table the rows leave much of unused
// is packed afresh. And `created` times unpacked without a Date (store/id.ts isoTime) are
// what Date writes.
import { describe, expect, it } from 'vitest';
import { packShard, type StoredShard } from '../src/store/cache-pack.js';
import { repackShard } from '../src/store/cache-repack.js';
import { unpackShard } from '../src/store/cache-unpack.js';
import type { HandoffMeta } from '../src/store/handoff.js';
import { isoTime } from '../src/store/id.js';
import type { CachedItem } from '../src/store/tree.js';

const month = '.handoff/handoffs/2026-01/';
/** An id made at `ms`, as the id source makes them (48 bits of time in Crockford base32, then randomness). */
const idAt = (ms: number, n: number) => {
  let time = '';
  for (let t = ms, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = '0123456789abcdefghjkmnpqrstvwxyz'[t % 32] + time;
  return `${time}${String(n).padStart(16, '0')}`;
};
const day = (n: number) => 1 + (n % 28);
const idOf = (n: number) => idAt(Date.UTC(2026, 0, day(n), 10, 0, 0, 0) + n, n);
const pathOf = (n: number) => `${month}${String(day(n)).padStart(2, '0')}/${idOf(n)}.md`;
const blob = (n: number) => n.toString(16).padStart(40, '0');
const stat = (n: number, v = 0) => `s${1_767_225_600_000 + n}.5:${1_767_225_600_000 + n}.5:${1234 + v}:${n}`;

function meta(n: number, over: Partial<HandoffMeta> = {}): HandoffMeta {
  const created = new Date(Date.UTC(2026, 0, day(n), 10, 0, 0, 0) + n + 3).toISOString();
  return {
    id: idOf(n),
    goal: `goal ${n % 7}`,
    status: n % 3 ? 'superseded' : 'open',
    created,
    author: `Dev ${n % 4} <dev${n % 4}@example.com>`,
    branch: `feature-${n % 5}`,
    base: blob(1000 + (n % 3)),
    head: blob(2000 + n),
    parent: n > 1 ? idOf(n - 1) : null,
    ...(n % 3 ? { superseded_by: idOf(n + 1) } : {}),
    files: [
      { path: `src/mod${n % 9}.ts`, change: 'modified', insertions: n % 4, deletions: 1, state: 'committed' },
      { path: `src/mod${n % 11}.ts`, change: 'added', state: 'staged' },
    ],
    ...over,
  } as HandoffMeta;
}

/** A month of files, each known by its stat data and by its blob id (one by its stat data only). */
function month40(): Map<string, CachedItem> {
  const entries = new Map<string, CachedItem>();
  for (let n = 1; n <= 40; n++) {
    const m = meta(n);
    entries.set(`${pathOf(n)}\0${stat(n)}`, n === 12 ? { meta: m } : { meta: m, blob: blob(n) });
    if (n !== 12) entries.set(`${pathOf(n)}\0${blob(n)}`, { meta: m, blob: blob(n) });
  }
  return entries;
}

/** The folder as read, and what a run that walked it used of it: each key's item as the shard gives it. */
function read(stored: StoredShard) {
  const shard = unpackShard(JSON.parse(JSON.stringify(stored)));
  return { shard, used: new Map([...shard.keys()].map((k) => [k, shard.item(k)!])) };
}

/** What a packed folder gives back: each key's item as JSON. */
function back(packed: StoredShard): Map<string, string> {
  const shard = unpackShard(JSON.parse(JSON.stringify(packed)));
  return new Map([...shard.keys()].sort().map((k) => [k, JSON.stringify(shard.item(k))]));
}

describe('a folder of the items cache packed again', () => {
  it("reads back as packShard's does, pairing a file's keys as it does, and keeps the rows left as they were", () => {
    const stored = JSON.parse(JSON.stringify(packShard(month40()))) as StoredShard;
    const { shard, used } = read(stored);
    // Closed: a new text and stat data, the old ones gone.
    for (const n of [5, 6]) {
      used.delete(`${pathOf(n)}\0${stat(n)}`);
      used.delete(`${pathOf(n)}\0${blob(n)}`);
      const closed = meta(n, { status: 'done', finished: '2026-01-30T10:00:00.000Z', landed: blob(3000) });
      used.set(`${pathOf(n)}\0${stat(n, 1)}`, { meta: closed, blob: blob(500 + n) });
      used.set(`${pathOf(n)}\0${blob(500 + n)}`, { meta: closed, blob: blob(500 + n) });
    }
    // Checked out again: the same text under new stat data (one row with the blob id, as before).
    const again = used.get(`${pathOf(20)}\0${stat(20)}`)!;
    used.delete(`${pathOf(20)}\0${stat(20)}`);
    used.set(`${pathOf(20)}\0${stat(20, 7)}`, { ...again });
    // Gone, and new.
    used.delete(`${pathOf(30)}\0${stat(30)}`);
    used.delete(`${pathOf(30)}\0${blob(30)}`);
    used.set(`${pathOf(41)}\0${stat(41)}`, { meta: meta(41) });

    const repacked = repackShard(shard.stored, used);
    const fresh = packShard(used);
    expect(back(repacked)).toEqual(back(fresh));
    expect([...back(repacked).keys()]).toEqual([...used.keys()].sort());
    for (const [key, item] of used) expect(back(repacked).get(key), key).toBe(JSON.stringify(item));
    expect(repacked.rows).toHaveLength(fresh.rows.length);
    // The table's values where they were, the rows of files left as they were too (but those
    // after a changed row, whose stat data is stored after another one's).
    expect(repacked.table.slice(0, stored.table.length)).toEqual(stored.table);
    const kept = repacked.rows.filter((r) => stored.rows.some((s) => JSON.stringify(s) === JSON.stringify(r)));
    expect(kept.length).toBeGreaterThanOrEqual(stored.rows.length - 10);
  });

  it('gives the folder as read when the run changed nothing (the cache then writes nothing)', () => {
    const stored = JSON.parse(JSON.stringify(packShard(month40()))) as StoredShard;
    const { shard, used } = read(stored);
    expect(repackShard(shard.stored, used)).toBe(shard.stored);
    expect(JSON.parse(JSON.stringify(shard.stored))).toEqual(stored);
    // One entry fewer: packed again.
    used.delete([...used.keys()][3]!);
    expect(repackShard(shard.stored, used)).not.toBe(shard.stored);
  });

  it('packs afresh when the rows leave more than an eighth of the table unused', () => {
    const stored = JSON.parse(JSON.stringify(packShard(month40()))) as StoredShard;
    const { shard, used } = read(stored);
    // Every goal and head edited: the old ones no row points to.
    for (let n = 1; n <= 40; n++) {
      const key = `${pathOf(n)}\0${stat(n)}`;
      used.delete(`${pathOf(n)}\0${blob(n)}`);
      used.set(key, { meta: meta(n, { goal: `another goal ${n}`, head: blob(4000 + n) }) });
    }
    expect(repackShard(shard.stored, used)).toEqual(packShard(used));
  });
});

describe('a time as ISO text without a Date', () => {
  it("is Date's toISOString for any time, in its range and out of it", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const times = [
      0,
      1,
      -0,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900, 1, 28),
      Date.UTC(1900, 2, 1),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
      -1,
      Date.UTC(-5, 0, 1),
      1_767_225_600_000.5,
    ];
    for (let i = 0; i < 20_000; i++) times.push(Math.floor(next() * Date.UTC(10_000, 0, 1)));
    for (const t of times) expect(isoTime(t), String(t)).toBe(new Date(t).toISOString());
  });
});
