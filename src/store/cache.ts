// The one cache: what parsing each .handoff/ file produced, in one JSON file in the git
// directory (never in the work tree, one per worktree). One rule: an entry is keyed by
// the file's path and content (a git blob id, or a work-tree file's whole text), so it
// can never be stale; a different tool build starts afresh. Only the entries used by a
// run are written back, so the file stays the size of the tree. It also remembers git's
// answers about pairs of commits (resume/history.ts), keyed by the two commit ids: a commit never changes, so neither does the answer. Any failure to
// read or write it is ignored: the cache only saves time, it never decides an answer.
import type { CachedItem, ParseCache } from './tree.js';
import { version } from '../core/version.js';
import { writeDisposable } from './fs.js';

// Taken, not imported: see store/fs.ts.
const { readFileSync, statSync } = process.getBuiltinModule('node:fs');

/** Its name in the git directory (the context builds the path once). */
export const CACHE_FILE = 'handoff-cache.json';
// Bump when CachedItem or the parsers change what they produce.
const FORMAT = 5;
/** How many answers about commits are kept: one per branch a session starts on. */
const ANSWERS_KEPT = 8;

export interface OpenCache {
  cache: ParseCache;
  /** Answers keyed by commit ids; those a run asks about or adds are kept first. */
  answers: { get(key: string): unknown; set(key: string, value: unknown): void };
  /** Writes back the entries used so far, when they differ from what was read. */
  save: () => Promise<void>;
}

interface Stored {
  items: Record<string, CachedItem>;
  answers: Record<string, unknown>;
}

/** One open cache per file and process: every reader in a run adds to the same entries. */
const opened = new Map<string, Promise<OpenCache>>();

export function openCache(file: string | null): Promise<OpenCache> {
  if (!file) return Promise.resolve(open(null));
  let o = opened.get(file);
  if (!o) opened.set(file, (o = read(file).then((stored) => open(file, stored))));
  return o;
}

async function read(file: string): Promise<Stored> {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      format?: unknown;
      version?: unknown;
      items?: unknown;
      answers?: unknown;
    };
    if (data.format === FORMAT && data.version === toolVersion() && isRecord(data.items)) {
      return {
        items: data.items as Record<string, CachedItem>,
        answers: isRecord(data.answers) ? data.answers : {},
      };
    }
  } catch {
    // no cache yet, or unreadable: parse everything
  }
  return { items: {}, answers: {} };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Entries remembered across runs beside the parsed items: those a run asks about or adds
 * come first, and `limit` are kept.
 */
function keptFirst<V>(stored: Iterable<readonly [string, V]>, limit: number, onAdd: () => void) {
  const known = new Map(stored);
  const used = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = used.get(key) ?? known.get(key);
      if (value !== undefined) used.set(key, value);
      return value;
    },
    set(key: string, value: V): void {
      used.set(key, value);
      onAdd();
    },
    kept: (): Array<[string, V]> => [...used, ...[...known].filter(([k]) => !used.has(k))].slice(0, limit),
  };
}

function open(file: string | null, stored: Stored = { items: {}, answers: {} }): OpenCache {
  const used = new Map<string, CachedItem>();
  let written = Object.keys(stored.items).length;
  let changed = false;
  const answers = keptFirst(Object.entries(stored.answers), ANSWERS_KEPT, () => (changed = true));
  let saving = Promise.resolve();
  return {
    cache: {
      get(key) {
        const item = Object.hasOwn(stored.items, key) ? stored.items[key] : undefined;
        if (item) used.set(key, item);
        return item;
      },
      set(key, item) {
        used.set(key, item);
        changed = true;
      },
    },
    answers: { get: answers.get, set: answers.set },
    save: () => {
      if (!file || (!changed && used.size === written)) return saving;
      changed = false;
      written = used.size;
      const text = JSON.stringify({
        format: FORMAT,
        version: toolVersion(),
        items: Object.fromEntries(used),
        answers: Object.fromEntries(answers.kept()),
      });
      saving = saving.then(() => writeDisposable(file, text));
      return saving;
    },
  };
}

let stamp: string | undefined;
/**
 * What cached entries depend on: the package version and the build, as the modification
 * time of the file this code runs from (every build writes dist/ anew, parsers included),
 * so a rebuilt or upgraded tool never reads entries an older parser wrote.
 */
function toolVersion(): string {
  if (stamp === undefined) {
    let built = 0;
    try {
      built = statSync(new URL(import.meta.url)).mtimeMs;
    } catch {
      // not a file (cannot happen from dist/): the version alone
    }
    stamp = `${version()}:${built}`;
  }
  return stamp;
}
