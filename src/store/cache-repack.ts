// A folder of the items cache packed again after a run (cache.ts): the rows read that hold
// exactly what the run keeps of them are stored as they were, pointing where they pointed in
// the folder's table, and only the entries the run added or changed are packed, their new
// values after the table's. A month of a year's handoffs is thousands of rows, and a `check`
// that closes fifty changes fifty of them. A table whose rows leave an eighth of it unused
// is packed afresh (packShard), so that it never grows without bound. Pure; what it gives
// reads back as packShard's would.
import type { CachedItem } from './tree.js';
import { interning } from './cache-meta.js';
import { chainStats, folderOf, markRow, packRows, packShard, type PackedRow, type StoredShard } from './cache-pack.js';
import type { StoredRows } from './cache-unpack.js';

/** The most of a table its rows may leave unused before it is packed afresh. */
const UNUSED_SHARE = 1 / 8;

/** `entries` packed, around the rows of `stored` (the folder as read) that hold the same entries; `stored` itself when they are all its. */
export function repackShard(stored: StoredRows | undefined, entries: ReadonlyMap<string, CachedItem>): StoredShard {
  if (stored === undefined || stored.rows.length === 0 || folderOf(entries) !== stored.folder)
    return packShard(entries);
  // The rows every key of which the run keeps with the item read from it.
  const same: Array<{ i: number; keys: string[] }> = [];
  for (let i = 0; i < stored.rows.length; i++) {
    const keys = stored.keys(i);
    if (
      keys.length > 0 &&
      keys.every((k) => {
        const item = entries.get(k);
        return item !== undefined && item === stored.given(k);
      })
    )
      same.push({ i, keys });
  }
  const covered = new Set<string>();
  for (const { keys } of same) for (const k of keys) covered.add(k);
  // A file with another entry is packed whole again, so that its entries share a row as packShard would pair them.
  const others = new Set<string>();
  for (const k of entries.keys()) if (!covered.has(k)) others.add(k.slice(0, k.indexOf('\0')));
  const kept = others.size === 0 ? same : same.filter(({ i }) => !others.has(stored.folder + stored.name(i)));
  const keptKeys = kept === same ? covered : new Set(kept.flatMap(({ keys }) => keys));
  const changed = new Map<string, CachedItem>();
  for (const [k, item] of entries) if (!keptKeys.has(k)) changed.set(k, item);
  if (changed.size === 0 && kept.length === stored.rows.length) return stored; // as read: the caller writes nothing
  const { table, intern } = interning(stored.table);
  const rows: PackedRow[] = kept.map(({ i }) => {
    const fields = stored.fields(i);
    const row = stored.rows[i]!;
    return fields ? { name: stored.name(i), row, fields } : { name: stored.name(i), row };
  });
  rows.push(...packRows(changed, stored.folder, intern));
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = chainStats(rows);
  const used = new Uint8Array(table.length);
  used[0] = 1;
  const mark = (index: number) => {
    if (index >= 0 && index < used.length) used[index] = 1;
  };
  for (const row of out) markRow(row, table, mark);
  let unused = 0;
  for (const u of used) unused += 1 - u;
  return unused > table.length * UNUSED_SHARE ? packShard(entries) : { folder: stored.folder, table, rows: out };
}
