// Merging one handoff or pin file, three ways, field by field: concurrent `done`, supersede
// and `unpin` on two clones never conflict. A closed state wins over an open one, the
// earliest time wins, and two continuations of one parent stay a fork (each child keeps
// its parent; the parent points at the earliest child). Other keys: the side that changed
// it wins; both changed it differently: ours. Bodies are left to a text merge (returned null).
import {
  frontMatterData,
  joinFrontMatter,
  parseFrontMatter,
  splitFrontMatter,
  updateFrontMatter,
} from '../store/frontmatter.js';

type Data = Record<string, unknown>;

const RANK: Record<string, number> = { open: 0, active: 0, done: 1, retired: 1, superseded: 2 };
/** Keys where the earliest value (ISO times, time-ordered ids) wins over the other side's. */
const EARLIEST = new Set(['finished', 'retired', 'superseded_by']);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function pick(key: string, o: unknown, a: unknown, b: unknown): unknown {
  if (same(a, b)) return a;
  if (key === 'status' && typeof a === 'string' && typeof b === 'string')
    return (RANK[b] ?? 0) > (RANK[a] ?? 0) ? b : a;
  if (EARLIEST.has(key) && (a === undefined || a === null || b === undefined || b === null)) return a ?? b;
  if (EARLIEST.has(key) && typeof a === 'string' && typeof b === 'string') return a < b ? a : b;
  if (same(o, a)) return b;
  return a;
}

export interface ItemMerge {
  /** The merged file, or null when the bodies changed on both sides in different ways. */
  text: string | null;
  body: { base: string; ours: string; theirs: string };
}

/** Merges the front-matter; the body is merged here when at most one side changed it. */
export function mergeItem(base: string, ours: string, theirs: string, file: string): ItemMerge {
  // Added on both sides (no base): each key as if ours were the base, so theirs' changes count.
  const [o, a, b] = [base.trim() === '' ? ours : base, ours, theirs].map((t) => splitFrontMatter(t, file)) as [
    ReturnType<typeof splitFrontMatter>,
    ReturnType<typeof splitFrontMatter>,
    ReturnType<typeof splitFrontMatter>,
  ];
  const oData: Data = frontMatterData(parseFrontMatter(o.yaml, file), file);
  const aDoc = parseFrontMatter(a.yaml, file);
  const aData = frontMatterData(aDoc, file);
  const bData = frontMatterData(parseFrontMatter(b.yaml, file), file);
  const changes: Data = {};
  for (const key of new Set([...Object.keys(aData), ...Object.keys(bData)])) {
    const value = pick(key, oData[key], aData[key], bData[key]);
    if (!same(value, aData[key])) changes[key] = value;
  }
  const yaml = Object.keys(changes).length > 0 ? updateFrontMatter(aDoc, changes) : a.yaml;
  const body = a.body === b.body || b.body === o.body ? a.body : a.body === o.body ? b.body : null;
  return {
    text: body === null ? null : joinFrontMatter(yaml, body),
    body: { base: o.body, ours: a.body, theirs: b.body },
  };
}
