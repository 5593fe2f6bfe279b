// The parse cache (tree.ts explains why): one JSON file in the git directory, never
// in the work tree. Keys are content hashes, so an entry is never stale; a different
// tool version starts afresh. Only the entries used by this run are written back, so
// the file stays the size of the tree. Any failure to read or write it is ignored:
// the cache only saves time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CachedItem, ParseCache } from './tree.js';
import { findGitDir } from '../git/repo.js';

const FILE = 'handoff-parse-cache.json';
// Bump when CachedItem or the parsers change what they produce.
const FORMAT = 1;

export interface OpenCache {
  cache: ParseCache;
  save: () => Promise<void>;
}

export async function openParseCache(root: string, env: NodeJS.ProcessEnv, version: string): Promise<OpenCache> {
  const dir = await findGitDir(root, env);
  const file = dir ? path.join(dir, FILE) : undefined;
  let stored: Record<string, CachedItem> = {};
  if (file) {
    try {
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as { format?: number; version?: string; items?: Record<string, CachedItem> };
      if (data.format === FORMAT && data.version === version && data.items) stored = data.items;
    } catch {
      // no cache yet, or unreadable: parse everything
    }
  }
  const used: Record<string, CachedItem> = {};
  let changed = false;
  return {
    cache: {
      get(key) {
        const item = stored[key];
        if (item) used[key] = item;
        return item;
      },
      set(key, item) {
        used[key] = item;
        changed = true;
      },
    },
    save: async () => {
      if (!file || (!changed && Object.keys(used).length === Object.keys(stored).length)) return;
      try {
        // Atomic (temp + rename) but not fsynced: losing the cache in a crash costs one re-parse,
        // and an fsync here would be on every commit that touches .handoff/.
        const temp = `${file}.${process.pid}.tmp`;
        await fs.writeFile(temp, JSON.stringify({ format: FORMAT, version, items: used }));
        await fs.rename(temp, file);
      } catch {
        // a read-only git dir: next run parses again
      }
    },
  };
}
