// `handoff new` writes the child, then marks its parent superseded: two files, so a kill in
// between leaves both open. The next writer (under the writer lock) finishes the job.
import type { Context } from '../command/context.js';
import { loadOpen, reread } from '../store/store.js';
import { rewriteItem } from '../store/writes.js';

/** An open handoff with an open child on the same branch is superseded by its newest such child. */
function unfinishedSupersedes(
  items: ReadonlyArray<{ meta: { id: string; status: string; parent?: string | null; branch?: string | null } }>,
): Map<string, string> {
  const open = new Map(items.filter((h) => h.meta.status === 'open').map((h) => [h.meta.id, h]));
  const fix = new Map<string, string>();
  for (const child of open.values()) {
    const parent = child.meta.parent ? open.get(child.meta.parent) : undefined;
    if (!parent || parent.meta.branch !== child.meta.branch) continue;
    const current = fix.get(parent.meta.id);
    if (!current || child.meta.id > current) fix.set(parent.meta.id, child.meta.id);
  }
  return fix;
}

export async function repairChains(ctx: Context, branch: string | null): Promise<void> {
  // Open handoffs only (store/open-index.ts): this runs before every `new`.
  const items = (await loadOpen(ctx)).handoffs;
  const fix = unfinishedSupersedes(items.filter((h) => h.meta.branch === branch));
  for (const [parentId, childId] of fix) {
    const parent = await reread(ctx, items.find((h) => h.meta.id === parentId)!);
    // handoff.ts loads the YAML library: only for a chain to repair, which is rare.
    const { updateHandoff } = await import('../store/handoff.js');
    await rewriteItem(ctx, parent.file, updateHandoff(parent, { status: 'superseded', superseded_by: childId }));
    ctx.stderr(`handoff: repaired an interrupted handoff new: ${parentId} is now superseded by ${childId}`);
  }
}
