// A folder of the items cache read back (cache.ts): what packShard stored (cache-pack.ts),
// each key's row found by its key, and the item an entry holds built when first asked for
// (a row's front-matter once for both of its keys). Pure; a row that does not read back is a
// miss, never a wrong answer.
import type { HandoffMeta } from './handoff.js';
import type { CachedItem } from './tree.js';
import { firstIndex, unpackMeta } from './cache-meta.js';
import {
  BLOB,
  BODY,
  CTIME_DIFFERS,
  defaultName,
  flagsOf,
  hasBlobKey,
  isStatKey,
  META_TEXT,
  MISNAMED,
  NAME,
  NAMED,
  NO_BLOB_KEY,
  PROBLEM,
  STAT,
  STAT_WITH_BLOB,
  type StoredShard,
  unpackStamp,
  WHOLE_NAME,
} from './cache-pack.js';

/** A stored folder read back: each key's row, and the item an entry holds, built when first asked for. */
export interface Shard {
  /** How many keys it holds. */
  size: number;
  row(key: string): number | undefined;
  /** The row of a work-tree file's entry by its stat data (`path` and its stat data without the `s`): row(key) without the key. */
  statRow(path: string, stamp: string): number | undefined;
  /** The item of a row, by the kind of key it was found by (stat data, or blob id); undefined when it does not read back. */
  itemAt(i: number, byStat: boolean): CachedItem | undefined;
  keys(): IterableIterator<string>;
  /**
   * Whether a walk of the work tree that used these entries found every file this folder's
   * entries name: each entry by stat data used, and each file with only an entry by blob id
   * looked up by its stat data. `marked`: the rows a walk found by statRow, counted as if
   * their keys were in `used`.
   */
  allFound(used: ReadonlyMap<string, unknown>, marked?: ReadonlySet<number>): boolean;
  item(key: string): CachedItem | undefined;
  /** What it holds as read, to pack it again around what a run changed (cache-repack.ts); undefined when empty. */
  stored?: StoredRows;
}

/** A shard's rows as read, by index. */
export interface StoredRows extends StoredShard {
  /** Its file name after the folder. */
  name(i: number): string;
  /** The keys it holds. */
  keys(i: number): string[];
  /** Its key by stat data, when it has one. */
  statKey(i: number): string | undefined;
  /** Its stat data's fields, when it has a key by them. */
  fields(i: number): readonly string[] | undefined;
  /** The item the shard gave for a key (an entry with it is as stored), or undefined when it gave none. */
  given(key: string): CachedItem | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const EMPTY: Shard = {
  size: 0,
  row: () => undefined,
  statRow: () => undefined,
  itemAt: () => undefined,
  keys: () => [][Symbol.iterator](),
  allFound: () => true,
  item: () => undefined,
};

/** What packShard stored, or an empty shard when it is not that shape. */
export function unpackShard(data: unknown): Shard {
  if (!isRecord(data) || typeof data.folder !== 'string' || !Array.isArray(data.table) || !Array.isArray(data.rows))
    return EMPTY;
  const { folder, table, rows } = data as unknown as StoredShard;
  const nameOf = defaultName(folder);
  const paths: string[] = [];
  // A row keyed by stat data, found by its path (a walk asks each file by its path and stat
  // data), and its stat data as stored. A path has one such row but where a run used two
  // (a file changed in a long-lived process, `handoff mcp`): the others are in `more`.
  const byPath = new Map<string, number>();
  const more = new Map<string, number[]>();
  const stamps: Array<string | undefined> = [];
  let stats = 0;
  let previous: readonly string[] = [];
  let blobs = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) return EMPTY;
    const flags = flagsOf(row);
    const byId = (flags & NAMED) === 0 && typeof row[META_TEXT] === 'string';
    const name = byId ? table[firstIndex(row[META_TEXT] as string)] : table[row[NAME] as number];
    if (typeof name !== 'string') return EMPTY;
    const path = byId ? folder + nameOf(name) : (flags & WHOLE_NAME) !== 0 ? folder + name : `${folder}${name}.md`;
    paths.push(path);
    if (typeof row[STAT] === 'string') {
      previous = unpackStamp(row[STAT], previous, (flags & CTIME_DIFFERS) !== 0);
      stamps[i] = previous.join(':');
      stats++;
      if (!byPath.has(path)) byPath.set(path, i);
      else more.set(path, [...(more.get(path) ?? []), i]);
    }
    if (hasBlobKey(row)) blobs++;
  }
  const statKey = (i: number) => (stamps[i] === undefined ? undefined : `${paths[i]}\0s${stamps[i]}`);
  /** The row of a work-tree file's entry by its stat data. */
  const statRow = (path: string, stamp: string) => {
    const i = byPath.get(path);
    if (i === undefined || stamps[i] === stamp) return i;
    return more.get(path)?.find((r) => stamps[r] === stamp);
  };
  const blobKey = (i: number) => `${paths[i]}\0${rows[i]![BLOB] as string}`;
  // Keys by blob id are built when first asked for: a walk of the work tree asks none.
  let byBlob: Map<string, number> | undefined;
  const blobKeys = () => {
    if (!byBlob) {
      byBlob = new Map();
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (hasBlobKey(row)) byBlob.set(blobKey(i), i);
      }
    }
    return byBlob;
  };
  const row = (key: string) => {
    const nul = key.indexOf('\0');
    return isStatKey(key) ? statRow(key.slice(0, nul), key.slice(nul + 2)) : blobKeys().get(key);
  };
  // The item each row gave, by its key by stat data and by blob id (a row holds one of each at most).
  const byStatItems: Array<CachedItem | undefined> = [];
  const byBlobItems: Array<CachedItem | undefined> = [];
  const given = (key: string) => {
    const i = row(key);
    return i === undefined ? undefined : (isStatKey(key) ? byStatItems : byBlobItems)[i];
  };
  // A row's front-matter, unpacked once for both of its keys.
  const metas: HandoffMeta[] = [];
  const metaOf = (i: number) => (metas[i] ??= unpackMeta(rows[i]![META_TEXT] as string, table));
  const itemAt = (i: number, stat: boolean) => {
    const items = stat ? byStatItems : byBlobItems;
    let item = items[i];
    if (item === undefined) {
      try {
        item = unpackRow(rows[i]!, i, metaOf, stat);
      } catch {
        return undefined; // damaged: a miss
      }
      items[i] = item;
    }
    return item;
  };
  return {
    size: stats + blobs,
    row,
    statRow,
    itemAt,
    keys: function* () {
      for (let i = 0; i < rows.length; i++) if (stamps[i] !== undefined) yield statKey(i)!;
      yield* blobKeys().keys();
    },
    allFound(used, marked) {
      let found: Set<string> | undefined;
      for (let i = 0; i < rows.length; i++) {
        if (stamps[i] !== undefined) {
          if (!marked?.has(i) && !used.has(statKey(i)!)) return false;
        } else if (hasBlobKey(rows[i]!)) {
          if (!found) {
            found = new Set();
            for (const k of used.keys()) if (isStatKey(k)) found.add(k.slice(0, k.indexOf('\0')));
            for (const r of marked ?? []) found.add(paths[r]!);
          }
          if (!found.has(paths[i]!)) return false;
        }
      }
      return true;
    },
    item(key) {
      const i = row(key);
      return i === undefined ? undefined : itemAt(i, isStatKey(key));
    },
    stored: {
      folder,
      table,
      rows,
      name: (i) => paths[i]!.slice(folder.length),
      statKey,
      keys: (i) => {
        const key = statKey(i);
        const keys = key === undefined ? [] : [key];
        if (hasBlobKey(rows[i]!)) keys.push(blobKey(i));
        return keys;
      },
      fields: (i) => stamps[i]?.split(':'),
      given,
    },
  };
}

function unpackRow(
  row: readonly unknown[],
  i: number,
  metaOf: (i: number) => HandoffMeta,
  byStat: boolean,
): CachedItem {
  const item: CachedItem = {};
  const flags = flagsOf(row);
  const meta = row[META_TEXT];
  if (typeof meta === 'string') item.meta = metaOf(i);
  else if (isRecord(meta)) item.meta = meta as unknown as CachedItem['meta'];
  if (typeof row[BODY] === 'string') item.body = row[BODY];
  if ((flags & MISNAMED) !== 0) item.misnamed = true;
  if (isRecord(row[PROBLEM])) item.problem = row[PROBLEM] as unknown as CachedItem['problem'];
  if (typeof row[BLOB] === 'string' && (!byStat || (flags & (NO_BLOB_KEY | STAT_WITH_BLOB)) !== 0))
    item.blob = row[BLOB];
  return item;
}
