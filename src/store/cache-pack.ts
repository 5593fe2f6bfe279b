// How the items cache stores one .handoff/ folder's entries (cache.ts): one row per file and
// parse result, holding both of its keys (the work tree's stat data and the blob id), and
// every value of the rows' front-matter written once per folder in a table the rows point
// into. A year of handoffs is tens of thousands of entries that share their authors,
// branches, statuses and file paths, and whose ids come back as the next one's parent and
// the previous one's superseded_by; written out whole, key names and repeated values were
// most of the cache. Pure; a front-matter that would not come back exactly as it was packed
// (a key this version does not know) is stored as it is, and a row that does not read back
// is a miss, never a wrong answer.
import type { FileChange, HandoffMeta } from './handoff.js';
import type { CachedItem } from './tree.js';
import { idTime } from './id.js';

/** The front-matter's keys in the parser's order; optional ones are left out when null. */
const META = [
  'id',
  'goal',
  'step',
  'status',
  'created',
  'author',
  'branch',
  'base',
  'head',
  'parent',
  'superseded_by',
  'finished',
  'landed',
] as const;
const OPTIONAL_META = new Set(['step', 'superseded_by', 'finished', 'landed']);
/** A listed file's keys in the parser's order, and as packed: the keys most files leave out last. */
const FILE = ['path', 'change', 'from', 'insertions', 'deletions', 'binary', 'files', 'state'] as const;
const FILE_PACKED = ['path', 'change', 'state', 'insertions', 'deletions', 'from', 'binary', 'files'] as const;
/** Where each key of FILE is in a packed file. */
const AT = FILE.map((k) => FILE_PACKED.indexOf(k));

/** A row's columns: file name, stat data, blob id, flags, front-matter, body, problem (trailing zeros left out). */
const BY_BLOB = 1;
const MISNAMED = 2;
/** The name is the table's value as it is, not an id with `.md` after it (which shares the id's entry). */
const WHOLE_NAME = 4;

/** One folder's entries as stored. */
export interface StoredShard {
  folder: string;
  /** Every value the rows point to, once; 0 is null. */
  table: unknown[];
  rows: unknown[][];
}

/**
 * What a row stores of a handoff's front-matter: table indexes in META's order, then the
 * files, two indexes each: the path, and the rest of the file packed (most files of a
 * folder share it). `created`, when it is the time the id was made plus a few milliseconds
 * (as `new` writes it), is stored as that difference, negative: -1 for none.
 */
function packMeta(meta: HandoffMeta, intern: Intern): unknown[] {
  const delta = createdDelta(meta);
  const out: unknown[] = META.map((k) =>
    k === 'created' && delta !== undefined ? -1 - delta : intern.value(meta[k] ?? null),
  );
  const files: number[] = [];
  for (const f of meta.files) {
    const t = FILE_PACKED.map((k) => intern.value((f as unknown as Record<string, unknown>)[k] ?? null));
    while (t.length > 1 && t[t.length - 1] === 0) t.pop();
    files.push(t[0]!, intern.tuple(t.slice(1)));
  }
  out.push(files);
  return out;
}

function createdDelta(meta: HandoffMeta): number | undefined {
  try {
    const made = idTime(meta.id);
    const delta = Date.parse(meta.created) - made;
    return delta >= 0 && delta < 1e9 && new Date(made + delta).toISOString() === meta.created ? delta : undefined;
  } catch {
    return undefined; // not a time a Date holds
  }
}

function unpackMeta(packed: readonly unknown[], table: readonly unknown[]): HandoffMeta {
  const meta: Record<string, unknown> = {};
  for (let i = 0; i < META.length; i++) {
    const at = packed[i] as number;
    const v = at < 0 ? new Date(idTime(meta.id as string) - 1 - at).toISOString() : (table[at] ?? null);
    if (v !== null || !OPTIONAL_META.has(META[i]!)) meta[META[i]!] = v;
  }
  const files = packed[META.length] as number[];
  const list: FileChange[] = [];
  for (let j = 0; j < files.length; j += 2) {
    const rest = table[files[j + 1]!] as number[];
    const f: Record<string, unknown> = {};
    for (let i = 0; i < FILE.length; i++) {
      const at = AT[i]!;
      const v = table[(at === 0 ? files[j] : rest[at - 1]) ?? 0] ?? null;
      if (v !== null) f[FILE[i]!] = v;
    }
    list.push(f as unknown as FileChange);
  }
  meta.files = list;
  return meta as unknown as HandoffMeta;
}

/** A table being filled: each value, and each packed file (an array of indexes), once. */
interface Intern {
  value(v: unknown): number;
  tuple(t: number[]): number;
}

function interning(): { table: unknown[]; intern: Intern } {
  const table: unknown[] = [null];
  const values = new Map<unknown, number>([[null, 0]]);
  const tuples = new Map<string, number>();
  return {
    table,
    intern: {
      value(v) {
        let i = values.get(v);
        if (i === undefined) values.set(v, (i = table.push(v) - 1));
        return i;
      },
      tuple(t) {
        const key = t.join(',');
        let i = tuples.get(key);
        if (i === undefined) tuples.set(key, (i = table.push(t) - 1));
        return i;
      },
    },
  };
}

const isHandoffMeta = (meta: object): meta is HandoffMeta => 'files' in meta && Array.isArray(meta.files);

/** Stat data (`ctime:mtime:size:ino`) as stored: the change time left out when it is the modification time. */
function packStamp(stamp: string): string {
  const colon = stamp.indexOf(':');
  const rest = stamp.slice(colon + 1);
  return rest.startsWith(`${stamp.slice(0, colon)}:`) ? rest : stamp;
}

function unpackStamp(stored: string): string {
  let colons = 0;
  for (let i = stored.indexOf(':'); i >= 0; i = stored.indexOf(':', i + 1)) colons++;
  return colons === 2 ? `${stored.slice(0, stored.indexOf(':'))}:${stored}` : stored;
}

/** A key's parts: its path, and its stat data (`s...`) or blob id after the NUL. */
export function keyParts(key: string): { path: string; rest: string } {
  const nul = key.indexOf('\0');
  return { path: key.slice(0, nul), rest: key.slice(nul + 1) };
}

/**
 * A folder's entries as stored. Keys are `<path>\0s<stat data>` or `<path>\0<blob id>`; an
 * entry keyed by a blob id carries that id, and shares its row with the same file's entry
 * keyed by stat data when the two are the same.
 */
export function packShard(entries: ReadonlyMap<string, CachedItem>): StoredShard {
  const first = entries.keys().next().value ?? '';
  const shared = first.slice(0, first.lastIndexOf('/', first.indexOf('\0')) + 1);
  const folder = [...entries.keys()].every((k) => k.startsWith(shared)) ? shared : '';
  const { table, intern } = interning();
  const rows: unknown[][] = [];
  /** Rows by file name and item, with the kinds of key each holds. */
  const byItem = new Map<string, { row: unknown[]; stat: boolean; blob: boolean }>();
  for (const [key, stored] of entries) {
    const { path, rest } = keyParts(key);
    const byStat = rest.startsWith('s');
    const item = byStat || stored.blob === rest ? stored : { ...stored, blob: rest };
    const name = path.slice(folder.length);
    const same = `${name}\0${JSON.stringify(item)}`;
    const found = byItem.get(same);
    if (found && !(byStat ? found.stat : found.blob)) {
      if (byStat) found.row[1] = packStamp(rest.slice(1));
      else found.row[3] = (found.row[3] as number) | BY_BLOB;
      found[byStat ? 'stat' : 'blob'] = true;
      continue;
    }
    const md = name.endsWith('.md');
    const row: unknown[] = [
      intern.value(md ? name.slice(0, -3) : name),
      byStat ? packStamp(rest.slice(1)) : 0,
      item.blob ?? 0,
      (byStat ? 0 : BY_BLOB) | (item.misnamed ? MISNAMED : 0) | (md ? 0 : WHOLE_NAME),
      packedMeta(item.meta, intern),
      item.body ?? 0,
      item.problem ?? 0,
    ];
    rows.push(row);
    byItem.set(same, { row, stat: byStat, blob: !byStat });
  }
  for (const row of rows) while (row.length > 1 && row[row.length - 1] === 0) row.pop();
  return { folder, table, rows };
}

function packedMeta(meta: CachedItem['meta'], intern: Intern): unknown {
  if (meta === undefined) return 0;
  if (!isHandoffMeta(meta)) return meta;
  const packed = packMeta(meta, intern);
  // Checked on a table of its own: a value that would not come back stored as it is.
  const own = interning();
  const again = packMeta(meta, own.intern);
  return JSON.stringify(unpackMeta(again, JSON.parse(JSON.stringify(own.table)))) === JSON.stringify(meta)
    ? packed
    : meta;
}

/** A stored folder read back: every key to its row, and each row's item, built when first asked for. */
export interface Shard {
  keys: Map<string, number>;
  item(row: number): CachedItem | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What packShard stored, or an empty shard when it is not that shape. */
export function unpackShard(data: unknown): Shard {
  const keys = new Map<string, number>();
  const none: Shard = { keys, item: () => undefined };
  if (!isRecord(data) || typeof data.folder !== 'string' || !Array.isArray(data.table) || !Array.isArray(data.rows))
    return none;
  const { folder, table, rows } = data as unknown as StoredShard;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const name = Array.isArray(row) ? table[row[0] as number] : undefined;
    if (typeof name !== 'string') return { keys: new Map(), item: () => undefined };
    const path = ((row![3] as number) & WHOLE_NAME) !== 0 ? folder + name : `${folder}${name}.md`;
    if (typeof row![1] === 'string') keys.set(`${path}\0s${unpackStamp(row![1])}`, i);
    if (((row![3] as number) & BY_BLOB) !== 0 && typeof row![2] === 'string') keys.set(`${path}\0${row![2]}`, i);
  }
  const items: Array<CachedItem | undefined> = [];
  return {
    keys,
    item(i) {
      let item = items[i];
      if (item === undefined) {
        try {
          items[i] = item = unpackRow(rows[i]!, table);
        } catch {
          return undefined; // damaged: a miss
        }
      }
      return item;
    },
  };
}

function unpackRow(row: readonly unknown[], table: readonly unknown[]): CachedItem {
  const item: CachedItem = {};
  const meta = row[4];
  if (Array.isArray(meta)) item.meta = unpackMeta(meta, table);
  else if (isRecord(meta)) item.meta = meta as unknown as CachedItem['meta'];
  if (typeof row[5] === 'string') item.body = row[5];
  if (((row[3] as number) & MISNAMED) !== 0) item.misnamed = true;
  if (isRecord(row[6])) item.problem = row[6] as unknown as CachedItem['problem'];
  if (typeof row[2] === 'string') item.blob = row[2];
  return item;
}
