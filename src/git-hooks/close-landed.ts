// Handoffs close when their work lands: on the default branch, an open handoff from a
// merged branch is marked done, with the commit that brought it as its evidence (`landed`)
// and that commit's time as `finished`, so every clone that closes it writes the same
// bytes. The post-merge hook runs this after a local merge or pull, and `handoff check`
// on the default branch for merges made on a server.
import type { Context } from '../command/context.js';
import { loadHandoffs, readTreeOnce, rereadText } from '../store/store.js';
import { changeOpen } from '../store/change-open.js';
import type { TreeFile } from '../store/tree.js';
import type { Handoff } from '../store/handoff.js';
import { rewriteItems } from '../store/writes.js';
import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite, listIndexAhead } from './validated.js';
import { landedCandidates, localName } from './landed.js';

export interface Closed {
  id: string;
  file: string;
  branch: string;
  commit: string;
  /**
   * The file as this run read it before closing it, when what it was closed from names the
   * same head commit and files as the handoff read then: what `check` found of those before
   * holds for the closed one (check/heads-found.ts).
   */
  was?: TreeFile;
}

/**
 * Marks the landed handoffs done in the work tree, one line each; returns them. `readsAll`:
 * the caller reads every file whatever the branch (`check`), so they are read while git
 * says which branch this is; the post-merge hook on another branch reads none.
 */
export async function closeLanded(ctx: Context, readsAll = false): Promise<Closed[]> {
  const git = await ctx.git();
  const [branch, defaultBranch] = await Promise.all([
    git.branch(),
    git.defaultBranch(ctx.config.default_branch),
    readsAll ? loadHandoffs(ctx) : undefined,
  ]);
  const target = localName(defaultBranch);
  if (branch === null || branch !== target) return [];
  const { items } = await loadHandoffs(ctx);
  const candidates = landedCandidates(items, branch, target);
  if (candidates.length === 0) return [];
  const landings = await git.landings(candidates.map((h) => h.file));
  const closed: Closed[] = [];
  await withWriterLock(ctx, 'closing landed handoffs', async () => {
    const writes: Array<{ file: string; content: string; parsed: Handoff | undefined }> = [];
    // Read again side by side, under the lock: each file as it is now, none waiting on another.
    const landed = candidates.filter((h) => landings.has(h.file)); // else not committed on this branch: nothing landed yet
    // The record after the writes lists the index: listed while they are made.
    if (landed.length > 0) listIndexAhead(ctx);
    const read = await Promise.allSettled(landed.map((h) => rereadText(ctx, h)));
    const asRead = new Set(landed.map((h) => h.file));
    const files = new Map((await readTreeOnce(ctx)).files.filter((f) => asRead.has(f.path)).map((f) => [f.path, f]));
    for (const [i, h] of landed.entries()) {
      const landing = landings.get(h.file)!;
      const r = read[i]!;
      if (r.status === 'rejected') throw r.reason; // the first in order, as one after another would
      // With what it parses to: the writer does not parse fifty files again.
      const {
        text,
        parsed,
        was: fresh,
      } = await changeOpen(r.value, h, 'done', [
        ['finished', landing.time],
        ['landed', landing.commit],
      ]);
      if (fresh.status !== 'open') continue;
      writes.push({ file: h.file, content: text, parsed });
      const same = fresh.head === h.meta.head && JSON.stringify(fresh.files) === JSON.stringify(h.meta.files);
      const was = same ? files.get(h.file) : undefined;
      closed.push({
        id: h.meta.id,
        file: h.file,
        branch: fresh.branch ?? '',
        commit: landing.commit,
        ...(was ? { was } : {}),
      });
    }
    // Written together: each folder checked and swept once, the cache patched once the files are in place.
    await rewriteItems(ctx, writes);
  });
  if (closed.length === 0) return closed;
  await afterWrite(ctx);
  for (const c of closed)
    ctx.stderr(
      `handoff: marked ${c.id} done: branch '${c.branch}' landed on ${branch} in ${c.commit.slice(0, 12)} (${c.file}; commit it)`,
    );
  return closed;
}
