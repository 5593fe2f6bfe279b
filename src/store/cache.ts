// A per-clone cache of parsed handoff front-matter, kept in the git directory (never
// committed, one per worktree), keyed by file name, size and modification time like
// git's own index. `list` and `resume` then stat files instead of parsing hundreds of
// YAML documents, which would otherwise dominate their start-up. Any doubt (missing,
// corrupt, other version, unwritable) means "parse the file", never a wrong answer.
import { promises as fs } from 'node:fs';
import type { Stats } from 'node:fs';
import type { HandoffMeta } from './handoff.js';
import { replaceFileAtomic } from './fs.js';

const VERSION = 1;

interface Entry {
  size: number;
  mtimeMs: number;
  meta: HandoffMeta;
}

export class MetaCache {
  private changed = false;

  private constructor(
    private readonly file: string | null,
    private readonly entries: Map<string, Entry>,
  ) {}

  static async open(file: string | null): Promise<MetaCache> {
    let entries = new Map<string, Entry>();
    if (file) {
      try {
        const data = JSON.parse(await fs.readFile(file, 'utf8')) as { version?: number; entries?: Record<string, Entry> };
        if (data.version === VERSION && data.entries && typeof data.entries === 'object') entries = new Map(Object.entries(data.entries));
      } catch {
        // absent or unreadable: start empty
      }
    }
    return new MetaCache(file, entries);
  }

  get(name: string, stat: Stats): HandoffMeta | undefined {
    const entry = this.entries.get(name);
    return entry && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs ? entry.meta : undefined;
  }

  set(name: string, stat: Stats, meta: HandoffMeta): void {
    this.entries.set(name, { size: stat.size, mtimeMs: stat.mtimeMs, meta });
    this.changed = true;
  }

  /** Writes the cache back when it changed, keeping only the names still present. */
  async save(present: ReadonlySet<string>): Promise<void> {
    for (const name of this.entries.keys()) {
      if (!present.has(name)) {
        this.entries.delete(name);
        this.changed = true;
      }
    }
    if (!this.file || !this.changed) return;
    try {
      await replaceFileAtomic(this.file, JSON.stringify({ version: VERSION, entries: Object.fromEntries(this.entries) }));
    } catch {
      // A read-only clone still works, only slower.
    }
  }
}
