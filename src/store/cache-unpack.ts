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
  META_TEXT,
  MISNAMED,
  NAME,
  NAMED,
  NO_BLOB_KEY,
  PROBLEM,
  STAT,
  STAT_WITH_BLOB,
  type StoredShard,
  unpackBlob,
  unpackStamp,
  WHOLE_NAME,
} from './cache-pack.js';

/** A stored folder read back: each key's row, and the item an entry holds, built when first asked for. */
export interface Shard {
  /** How many keys it holds. */
  size: number;
  row(key: string): number | undefined;
  keys(): IterableIterator<string>;
  /**
   * Whether a walk of the work tree that used these entries found every file this folder's
   * entries name: each entry by stat data used, and each file with only an entry by blob id
   * looked up by its stat data.
   */
  allFound(used: ReadonlyMap<string, unknown>): boolean;
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
  /** Its stat data's fields, when it has a key by them. */
  fields(i: number): readonly string[] | undefined;
  /** The item the shard gave for a key (an entry with it is as stored), or undefined when it gave none. */
  given(key: string): CachedItem | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const EMPTY: Shard = {
  size: 0,
  row: () => undefined,
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
  const byStat = new Map<string, number>();
  const statKeys: Array<string | undefined> = [];
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
      const key = `${path}\0s${previous.join(':')}`;
      byStat.set(key, i);
      statKeys[i] = key;
    }
    if (hasBlobKey(row)) blobs++;
  }
  const blobKey = (i: number) => `${paths[i]}\0${unpackBlob(rows[i]![BLOB] as string)}`;
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
  /** A key by stat data (rows' STAT column), not by blob id. */
  const isStat = (key: string) => key.charCodeAt(key.indexOf('\0') + 1) === 115; /* s */
  const row = (key: string) => (isStat(key) ? byStat.get(key) : blobKeys().get(key));
  const items = new Map<string, CachedItem>();
  // A row's front-matter, unpacked once for both of its keys.
  const metas: HandoffMeta[] = [];
  const metaOf = (i: number) => (metas[i] ??= unpackMeta(rows[i]![META_TEXT] as string, table));
  return {
    size: byStat.size + blobs,
    row,
    keys: () => [...byStat.keys(), ...blobKeys().keys()][Symbol.iterator](),
    allFound(used) {
      let found: Set<string> | undefined;
      for (let i = 0; i < rows.length; i++) {
        const key = statKeys[i];
        if (key !== undefined) {
          if (!used.has(key)) return false;
        } else if (hasBlobKey(rows[i]!)) {
          if (!found) {
            found = new Set();
            for (const k of used.keys())
              if (k.charCodeAt(k.indexOf('\0') + 1) === 115 /* s */) found.add(k.slice(0, k.indexOf('\0')));
          }
          if (!found.has(paths[i]!)) return false;
        }
      }
      return true;
    },
    item(key) {
      let item = items.get(key);
      if (item === undefined) {
        const i = row(key);
        if (i === undefined) return undefined;
        try {
          item = unpackRow(rows[i]!, i, metaOf, isStat(key));
        } catch {
          return undefined; // damaged: a miss
        }
        items.set(key, item);
      }
      return item;
    },
    stored: {
      folder,
      table,
      rows,
      name: (i) => paths[i]!.slice(folder.length),
      keys: (i) => {
        const key = statKeys[i];
        const keys = key === undefined ? [] : [key];
        if (hasBlobKey(rows[i]!)) keys.push(blobKey(i));
        return keys;
      },
      fields: (i) => statKeys[i]?.slice(statKeys[i]!.indexOf('\0') + 2).split(':'),
      given: (key) => items.get(key),
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
    item.blob = unpackBlob(row[BLOB]);
  return item;
}
