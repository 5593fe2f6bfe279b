// Cline's hooks: its TaskStart output reaches nothing and its PreCompact never fires (3.0),
// so TaskStart brings the pins in its rules file up to date, and TaskComplete writes the
// handoff for a compaction the task went through and folds the summary Cline left.
import type { Context } from '../command/context.js';
import type { HookInput } from './hook-input.js';
import { exists } from '../store/fs.js';
import { truncate } from '../command/output.js';
import { answer, refreshPins } from './hook-session-start.js';
import { writeCompactionHandoff } from './hook-pre-compact.js';

/** Cline's TaskStart output reaches nothing: bring the pins in its rules file up to date for the task. */
export async function clineTaskStart(ctx: Context): Promise<void> {
  await refreshPins(ctx, '.clinerules/git-handoff.md');
  answer(ctx, {});
}

/**
 * Cline's PreCompact never fires (3.0): when a task ends, a compaction it went through has
 * left `<id>.compaction.json` beside its messages; one handoff per such file.
 */
export async function clineTaskComplete(ctx: Context, input: HookInput, agent: string): Promise<void> {
  answer(ctx, {});
  if (!input.session_id || !(await exists(ctx.dir))) return;
  const { clineCompaction, clineSummary } = await import('./cline-session.js');
  const found = await clineCompaction(ctx.env, input.session_id);
  if (!found) return;
  const compaction = await import('./compaction.js');
  if (await compaction.writtenForCompaction(ctx.root, input.session_id, found.compaction)) return;
  const written = await writeCompactionHandoff(ctx, { ...input, transcript_path: found.messages }, agent);
  if (written === null) return;
  const file = ctx.rel(written.file);
  await compaction.rememberCompaction(ctx.root, input.session_id, found.compaction, file);
  ctx.stderr(`handoff: wrote ${file} after ${agent} compacted this task; goal: ${truncate(written.goal, 80)}`);
  // The summary is written already (its PreCompact never fires, so it was not steered): folded now.
  const summary = await clineSummary(found.compaction);
  if (summary)
    await (await import('./harvest.js')).foldInto(
      ctx,
      { file, transcript: found.messages, agent, session: input.session_id },
      summary,
    );
}
