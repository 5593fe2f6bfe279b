// Handoffs this clone wrote. A writer keeps the file's stat data (ctime, mtime, size, inode,
// as the open index and git's index keep them) right after the write, in the one cache's
// answers. While the file still has that stat data, its text is what this clone wrote, so
// it is the user's own and needs no look at git's history for who added it
// (resume/provenance.ts). A checkout, merge or pull that rewrites the file changes its stat
// data, and then git is asked as before. The cache only saves time: a lost entry means git.
import type { OpenCache } from './cache.js';
import { fileStamp } from './fs.js';

const key = (rel: string) => `own\0${rel}`;

/** After a write of `rel` (at `file`): remember its stat data as this clone's. */
export function recordOwn(cache: OpenCache, rel: string, file: string): void {
  const st = fileStamp(file);
  if (st) cache.answers.set(key(rel), st);
}

/** Whether `rel` (at `file`) is still exactly as this clone wrote it. */
export function writtenHere(cache: OpenCache, rel: string, file: string): boolean {
  const kept = cache.answers.get(key(rel));
  if (!Array.isArray(kept) || kept.length !== 4) return false;
  const st = fileStamp(file);
  return st?.every((v, i) => v === kept[i]) ?? false;
}
