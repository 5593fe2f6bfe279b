// How the items cache stores a handoff's front-matter: as a list of values in the order the
// parser gives its keys (handoff.ts validateMeta), each listed file as one too, instead of
// objects that repeat every key name. A year of handoffs is tens of thousands of entries
// whose key names were most of the cache. Pure; a form that would not give back exactly
// what was packed (a key this version does not know) is stored as it is.
import type { FileChange, HandoffMeta } from './handoff.js';

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

type Packed = unknown[];

function packFile(f: FileChange): Packed {
  const out: unknown[] = FILE_PACKED.map((k) => (f as unknown as Record<string, unknown>)[k] ?? null);
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
}

/** Where each key of FILE is in a packed file. */
const AT = FILE.map((k) => FILE_PACKED.indexOf(k));

function unpackFile(t: readonly unknown[]): FileChange {
  const f: Record<string, unknown> = {};
  for (let i = 0; i < FILE.length; i++) {
    const v = t[AT[i]!];
    if (v !== null && v !== undefined) f[FILE[i]!] = v;
  }
  return f as unknown as FileChange;
}

/** A handoff's front-matter as stored; anything else (a pin's) as it is. */
export function packMeta(meta: object): unknown {
  if (!('files' in meta) || !Array.isArray(meta.files)) return meta;
  const m = meta as HandoffMeta;
  const packed = [...META.map((k) => m[k] ?? null), m.files.map(packFile)];
  return JSON.stringify(unpackMeta(packed)) === JSON.stringify(meta) ? packed : meta;
}

/** What packMeta stored, back as the parser gave it. */
export function unpackMeta(stored: unknown): unknown {
  if (!Array.isArray(stored)) return stored;
  const meta: Record<string, unknown> = {};
  for (let i = 0; i < META.length; i++) {
    const v = stored[i] ?? null;
    if (v !== null || !OPTIONAL_META.has(META[i]!)) meta[META[i]!] = v;
  }
  meta.files = (stored[META.length] as unknown[][]).map(unpackFile);
  return meta;
}
