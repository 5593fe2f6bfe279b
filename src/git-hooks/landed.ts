// Which open handoffs have landed: on the default branch, an open handoff written on
// another branch came with that branch's merge, so its work is in. Decided from the
// files and the branch names alone; the commit that brought each one is git's answer
// (close-landed.ts), and a handoff with no such commit (not committed here) stays open.
import type { Handoff } from '../store/handoff.js';

/** The default branch as a local name: origin's HEAD reads `origin/main`. */
export function localName(defaultBranch: string | null): string | null {
  return defaultBranch?.replace(/^origin\//, '') ?? null;
}

/** Open handoffs written on another branch, when HEAD is the default branch; else none. */
export function landedCandidates(
  handoffs: readonly Handoff[],
  current: string | null,
  defaultBranch: string | null,
): Handoff[] {
  if (current === null || defaultBranch === null || current !== defaultBranch) return [];
  return handoffs.filter((h) => h.meta.status === 'open' && h.meta.branch !== null && h.meta.branch !== current);
}
