// How the items cache stores one .handoff/ folder's entries (cache.ts): one row per file and
// parse result, holding both of its keys (the work tree's stat data and the blob id), and
// every value of the rows' front-matter written once per folder in a table the rows point
// into (cache-meta.ts). A year of handoffs is tens of thousands of entries that share their
// authors, branches, statuses and file paths, and whose ids come back as the next one's
// parent and the previous one's superseded_by. Pure; read back by cache-unpack.ts, where a
// row that does not read back is a miss, never a wrong answer.
import type { HandoffMeta } from './handoff.js';
import type { CachedItem } from './tree.js';
import { digit, digitOf, type Intern, interning, markMeta, packedMeta } from './cache-meta.js';
import { idTime } from './id.js';

/**
 * A row's columns: stat data (after what it shares with the row's before), blob id (as
 * git writes it), front-matter (a handoff's packed as text, see encode), flags, file name
 * (when it is not `<id>.md`), body, problem; trailing zeros left out, so that the flags say
 * what is unusual and a plain handoff's row ends at its front-matter.
 */
export const STAT = 0;
export const BLOB = 1;
export const META_TEXT = 2;
export const FLAGS = 3;
export const NAME = 4;
export const BODY = 5;
export const PROBLEM = 6;
/** No entry is keyed by the row's blob id: the blob id is the stat data's entry's. */
export const NO_BLOB_KEY = 1;
export const MISNAMED = 2;
/** The name is the table's value as it is, not an id with `.md` after it (which shares the id's entry). */
export const WHOLE_NAME = 4;
/** The entry keyed by stat data carries the blob id too (it may not know it). */
export const STAT_WITH_BLOB = 8;
/** The stat data is stored with its change time: that is not its modification time (or the stat data is of another shape). */
export const CTIME_DIFFERS = 16;
/** The file is not named `<id>.md` after the handoff in it: the name column holds its name. */
export const NAMED = 32;

export const flagsOf = (row: readonly unknown[]) => (typeof row[FLAGS] === 'number' ? row[FLAGS] : 0);

/** One folder's entries as stored. */
export interface StoredShard {
  folder: string;
  /** Every value the rows point to, once; 0 is null. */
  table: unknown[];
  rows: unknown[][];
}

/**
 * Stat data (`ctime:mtime:size:ino`) as stored: each field after the same field of the
 * row's before (files checked out together share most of their times and inode numbers),
 * and the change time left out when it is the modification time (unless the row's flag
 * CTIME_DIFFERS says otherwise; stat data of another shape is stored whole, flagged so).
 */
function packStamp(fields: readonly string[], previous: readonly string[]): string {
  const out: string[] = [];
  for (let i = isWhole(fields) ? 0 : 1; i < fields.length; i++) out.push(afterPrevious(fields[i]!, previous[i] ?? ''));
  return out.join(':');
}

const isWhole = (fields: readonly string[]) => fields.length !== 4 || fields[0] !== fields[1];

/** packStamp's fields back, each cut from the stored text once (a year of rows is read at each `list`). */
export function unpackStamp(stored: string, previous: readonly string[], whole: boolean): string[] {
  const fields: string[] = [];
  for (let at = 0, i = whole ? 0 : 1; at <= stored.length; i++) {
    let end = stored.indexOf(':', at);
    if (end < 0) end = stored.length;
    fields.push((previous[i] ?? '').slice(0, digitOf(stored.charCodeAt(at))) + stored.slice(at + 1, end));
    at = end + 1;
  }
  if (!whole) fields.unshift(fields[0]!);
  return fields;
}

/** A month of the dated layout: its days' folders are one shard. */
const MONTH_FOLDER = /^\.handoff\/handoffs\/(\d{4})-(\d{2})\/$/;
const DAY_MS = 86_400_000;

/**
 * The folder whose files one shard holds, for a file's path: its own, but for a handoff of
 * the dated layout, its month's (`.handoff/handoffs/2026-11/`): a shard per day held a few
 * handoffs each, and the values they share (authors, branches, file paths, the ids of their
 * parents) were written again in each day's table.
 */
export function shardFolder(path: string): string {
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const up = dir.lastIndexOf('/', dir.length - 2) + 1;
  const month = dir.slice(0, up);
  return /^\d{2}\/$/.test(dir.slice(up)) && MONTH_FOLDER.test(month) ? month : dir;
}

/**
 * The name (after the folder) of the file of a handoff with this id, as `handoff new` names
 * it: `<id>.md`, in a month's shard under the day of its id (`24/<id>.md`); a row whose file
 * is named so stores no name. The day counted from the month's first (no Date per row).
 */
export function defaultName(folder: string): (id: string) => string {
  const m = MONTH_FOLDER.exec(folder);
  if (!m) return (id) => `${id}.md`;
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1);
  return (id) => {
    const day = Math.floor((idTime(id) - start) / DAY_MS) + 1;
    return `${day < 10 ? `0${day}` : day}/${id}.md`;
  };
}

/** Whether a key is a work-tree file's by its stat data (`<path>\0s...`), not by a blob id. */
export const isStatKey = (key: string) => key.charCodeAt(key.indexOf('\0') + 1) === 115; /* s */

/** A key's parts: its path, and its stat data (`s...`) or blob id after the NUL. */
export function keyParts(key: string): { path: string; rest: string } {
  const nul = key.indexOf('\0');
  return { path: key.slice(0, nul), rest: key.slice(nul + 1) };
}

/**
 * A field as stored after the one before it: how many characters it shares with that (one
 * base-91 digit, at most 20 so that it is never the `:` between fields), then the rest.
 */
function afterPrevious(text: string, previous: string): string {
  let n = 0;
  while (n < 20 && n < text.length && text.charCodeAt(n) === previous.charCodeAt(n)) n++;
  return digit(n) + text.slice(n);
}

/**
 * A folder's entries as stored. Keys are `<path>\0s<stat data>`, `<path>\0<blob id>` or
 * a key by a file's text is the cache's to hash (cache.ts) and is not stored; an entry keyed by a blob id carries that id. A file's entry keyed by stat data and the one
 * keyed by a blob id share a row when their items are the same but for the blob id, which
 * the stat data's entry may not know.
 */
export function packShard(entries: ReadonlyMap<string, CachedItem>): StoredShard {
  const folder = folderOf(entries);
  const { table, intern } = interning();
  return { folder, table, rows: chainStats(packRows(entries, folder, intern)) };
}

/** The folder all the keys are in (the first one's shard's), or '' when they are not in one. */
export function folderOf(entries: ReadonlyMap<string, CachedItem>): string {
  const first = entries.keys().next().value ?? '';
  const shared = shardFolder(first.slice(0, Math.max(0, first.indexOf('\0'))));
  for (const k of entries.keys()) if (!k.startsWith(shared)) return '';
  return shared;
}

/** A row as packed, its stat data not yet stored after the row's before (chainStats). */
export interface PackedRow {
  /** The file's name after the folder. */
  name: string;
  row: unknown[];
  /** Its stat data's fields, when it has a key by them. */
  fields?: readonly string[];
}

/**
 * The rows of `entries` (in a folder whose values `intern` puts in its table), in name order.
 * A file's entry keyed by stat data and the one keyed by a blob id share a row when their
 * items are the same but for the blob id, which the stat data's entry may not know.
 */
export function packRows(entries: ReadonlyMap<string, CachedItem>, folder: string, intern: Intern): PackedRow[] {
  const nameOf = defaultName(folder);
  /** Per file name and item but for its blob id: the rows, each with what its two keys hold. */
  const byItem = new Map<string, Array<{ stat?: string; statBlob?: string; blob?: string; item: CachedItem }>>();
  const all: Array<{
    stat?: string;
    statBlob?: string;
    blob?: string;
    item: CachedItem;
    name: string;
  }> = [];
  // A file with one entry has a row of its own: its item is compared with no other's (as
  // JSON, a year of front-matters was most of a fresh clone's first pack).
  const perPath = new Map<string, number>();
  for (const key of entries.keys()) {
    const path = key.slice(0, key.indexOf('\0'));
    perPath.set(path, (perPath.get(path) ?? 0) + 1);
  }
  for (const [key, stored] of entries) {
    const { path, rest } = keyParts(key);
    const name = path.slice(folder.length);
    const { blob, ...item } = stored;
    if (rest.startsWith('\0')) continue;
    const same = perPath.get(path) === 1 ? key : `${name}\0${JSON.stringify(item)}`;
    let rows = byItem.get(same);
    if (!rows) byItem.set(same, (rows = []));
    if (rest.startsWith('s')) {
      const row = rows.find(
        (r) => r.stat === undefined && (r.blob === undefined || blob === undefined || blob === r.blob),
      );
      if (row) Object.assign(row, { stat: rest.slice(1), statBlob: blob });
      else {
        const r = { stat: rest.slice(1), statBlob: blob, item, name };
        rows.push(r);
        all.push(r);
      }
    } else {
      const row = rows.find((r) => r.blob === undefined && (r.statBlob === undefined || r.statBlob === rest));
      if (row) row.blob = rest;
      else {
        const r = { blob: rest, item, name };
        rows.push(r);
        all.push(r);
      }
    }
  }
  // In name order (files checked out together share most of their stat data, chainStats).
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return all.map((r) => {
    const fields = r.stat?.split(':');
    const md = r.name.endsWith('.md');
    const blob = r.blob ?? r.statBlob;
    const meta = packedMeta(r.item.meta, intern);
    const byId = md && typeof meta === 'string' && nameOf((r.item.meta as HandoffMeta).id) === r.name;
    const row: unknown[] = [];
    row[STAT] = 0;
    row[BLOB] = blob ?? 0;
    row[META_TEXT] = meta;
    row[FLAGS] =
      (r.blob === undefined ? NO_BLOB_KEY : 0) |
      (r.item.misnamed ? MISNAMED : 0) |
      (byId || (md && !r.name.includes('/')) ? 0 : WHOLE_NAME) |
      (r.blob !== undefined && r.stat !== undefined && r.statBlob !== undefined ? STAT_WITH_BLOB : 0) |
      (fields && isWhole(fields) ? CTIME_DIFFERS : 0) |
      (byId ? 0 : NAMED);
    row[NAME] = byId ? 0 : intern.value(md && !r.name.includes('/') ? r.name.slice(0, -3) : r.name);
    row[BODY] = r.item.body ?? 0;
    row[PROBLEM] = r.item.problem ?? 0;
    while (row.length > 1 && row[row.length - 1] === 0) row.pop();
    return fields ? { name: r.name, row, fields } : { name: r.name, row };
  });
}

/** The rows, each row's stat data stored after its before's (a row stored as it was is kept when that is unchanged). */
export function chainStats(rows: readonly PackedRow[]): unknown[][] {
  let previous: readonly string[] = [];
  return rows.map(({ row, fields }) => {
    if (fields === undefined) return row;
    const stat = packStamp(fields, previous);
    previous = fields;
    if (row[STAT] === 0)
      row[STAT] = stat; // packed now
    else if (row[STAT] !== stat) return [stat, ...row.slice(1)]; // stored after another row
    return row;
  });
}

/** Marks each index of the folder's table a row points to. */
export function markRow(row: readonly unknown[], table: readonly unknown[], mark: (index: number) => void): void {
  if (typeof row[META_TEXT] === 'string') markMeta(row[META_TEXT], table, mark);
  if ((flagsOf(row) & NAMED) !== 0 && typeof row[NAME] === 'number') mark(row[NAME]);
}

export const hasBlobKey = (row: readonly unknown[]) =>
  (flagsOf(row) & NO_BLOB_KEY) === 0 && typeof row[BLOB] === 'string';
