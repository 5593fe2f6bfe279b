// Whether an agent's compaction summary is waiting to be folded into its handoff: one stat
// on the session-start path, so the harvest (harvest.ts) is loaded only when one is due.
import path from 'node:path';
import type { RunContext } from '../core/context.js';

// Taken, not imported: every session start loads this module (see store/fs.ts).
const { existsSync } = process.getBuiltinModule('node:fs');

/** `<git dir>/handoff-harvest.json`: never committed, one per worktree, beside the cache. */
export function dueFile(ctx: RunContext): string | undefined {
  return ctx.cacheFile ? path.join(path.dirname(ctx.cacheFile), 'handoff-harvest.json') : undefined;
}

export function harvestIsDue(ctx: RunContext): boolean {
  const file = dueFile(ctx);
  return file !== undefined && existsSync(file);
}
