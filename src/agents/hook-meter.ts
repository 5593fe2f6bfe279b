// Claude Code's opt-in Stop hook: how full the session's context is, said once.
import type { Context } from '../command/context.js';
import type { HookInput } from './hook-input.js';
import { exists } from '../store/fs.js';
import { answer } from './hook-session-start.js';

/** Opt-in (Stop hook): once per session, one line when the context passes the threshold. The user decides. */
export async function meter(ctx: Context, input: HookInput, agent: string): Promise<void> {
  if (!input.transcript_path || !(await exists(ctx.dir))) return;
  const { lastUsage, readTranscriptTail } = await import('./claude-usage.js');
  const usage = lastUsage(await readTranscriptTail(input.transcript_path));
  if (!usage) return;
  // One formula with `handoff meter`: the same tokens, the same window (model, else config), the same threshold.
  const { computeMeter } = await import('../transcripts/meter-usage.js');
  const configWindow = Number(ctx.env.HANDOFF_CONTEXT_WINDOW) || ctx.config.context_window;
  const m = computeMeter(
    { contextTokens: usage.tokens, ...(usage.model ? { model: usage.model } : {}) },
    configWindow,
    ctx.config.meter_threshold,
  );
  if (!m?.above) return;
  const { firstSuggestion } = await import('./meter-state.js');
  if (!(await firstSuggestion(input.session_id ?? input.transcript_path))) return;
  const line = `handoff: ${agent}'s context is at ${Math.round(m.percent)}% (${m.tokens.toLocaleString('en-US')} of ${m.window.toLocaleString('en-US')} tokens); consider \`handoff new "<next goal>"\` and a fresh session before it compacts`;
  ctx.stderr(line);
  answer(ctx, { systemMessage: line });
}
