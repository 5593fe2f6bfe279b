// `handoff meter`: how full the agent's context window is, and whether to hand off now.
// Exit 3 above the threshold, so a hook or a shell prompt can act on it.
import { EXIT } from '../cli/errors.js';
import type { Args } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { printJson } from '../cli/output.js';
import { DEFAULT_TRANSCRIPT_CONFIG } from '../store/config.js';
import { computeMeter } from './meter-usage.js';
import { readFrom } from '../transcripts/transcript-source.js';

export const ABOVE_THRESHOLD = EXIT.attention;

export async function run(ctx: Context, args: Args): Promise<number> {
  const from = (args.values.from as string | undefined) ?? 'auto';
  const r = await readFrom(ctx, from, args.values.force === true);
  if (!r) {
    // Nothing to measure is not a failure: a shell prompt or hook calling this stays quiet.
    if (args.values.json === true) printJson(ctx, { agent: null, session: null, file: null, model: null, context: null, threshold: null, above: false, compactions: 0 });
    else ctx.stdout('No agent session found for this repository; nothing to measure (name one with --from <file>).\n');
    return 0;
  }
  const threshold = ctx.config.meter_threshold ?? DEFAULT_TRANSCRIPT_CONFIG.meter_threshold;
  const meter = computeMeter(r.extraction.usage, ctx.config.context_window ?? DEFAULT_TRANSCRIPT_CONFIG.context_window, threshold);
  const session = { agent: r.opened.agent, session: r.extraction.sessionId ?? null, file: r.shown, model: r.extraction.model ?? null };
  if (args.values.json === true) {
    // Shaped like a `handoff sessions` row: the session, then its context use.
    const context = meter ? { tokens: meter.tokens, window: meter.window, windowSource: meter.windowSource, percent: meter.percent } : null;
    printJson(ctx, { ...session, context, threshold, above: meter?.above ?? false, compactions: r.extraction.counts.compactions });
    return meter?.above ? ABOVE_THRESHOLD : 0;
  }
  if (!meter) {
    ctx.stdout(`${session.agent} session ${session.session ?? r.shown}: no token usage recorded since the last compaction; nothing to measure\n`);
    return 0;
  }
  const fmt = (n: number) => n.toLocaleString('en-US');
  const window = meter.windowSource === 'log' ? 'window from the log' : meter.windowSource === 'model' ? `window of ${session.model}` : 'window from config (context_window)';
  ctx.stdout(`${session.agent} session ${session.session ?? r.shown}: ${fmt(meter.tokens)} of ${fmt(meter.window)} tokens (${meter.percent}%; ${window})\n`);
  ctx.stdout(meter.above ? `Above ${threshold}%: hand off now (handoff new "<next goal>" --from auto).\n` : `Below ${threshold}%: no need to hand off yet.\n`);
  return meter.above ? ABOVE_THRESHOLD : 0;
}
