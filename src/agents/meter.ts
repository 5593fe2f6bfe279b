// `handoff meter`: how full the agent's context window is, and whether to hand off now.
// Exit 3 above the threshold, so a hook or a shell prompt can act on it.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { printJson } from '../command/output.js';
import { computeMeter } from '../transcripts/meter-usage.js';
import { readFrom } from '../transcripts/transcript-source.js';

export async function run(ctx: Context, args: ArgsOf<'meter'>): Promise<Outcome> {
  const from = args.values.from ?? 'auto';
  const r = await readFrom(ctx, from, args.values.force === true);
  if (!r) {
    // Nothing to measure is not a failure: a shell prompt or hook calling this stays quiet.
    if (args.values.json === true)
      printJson(ctx, {
        agent: null,
        session: null,
        file: null,
        model: null,
        context: null,
        threshold: null,
        above: false,
        compactions: 0,
      });
    else ctx.stdout('No agent session found for this repository; nothing to measure (name one with --from <file>).\n');
    return;
  }
  const threshold = ctx.config.meter_threshold;
  const meter = computeMeter(r.extraction.usage, ctx.config.context_window, threshold);
  const session = {
    agent: r.opened.agent,
    session: r.extraction.sessionId ?? null,
    file: r.shown,
    model: r.extraction.model ?? null,
  };
  if (args.values.json === true) {
    // Shaped like a `handoff sessions` row: the session, then its context use.
    const context = meter
      ? { tokens: meter.tokens, window: meter.window, windowSource: meter.windowSource, percent: meter.percent }
      : null;
    printJson(ctx, {
      ...session,
      context,
      threshold,
      above: meter?.above ?? false,
      compactions: r.extraction.counts.compactions,
    });
    return meter?.above ? 'attention' : undefined;
  }
  if (!meter) {
    ctx.stdout(
      `${session.agent} session ${session.session ?? r.shown}: no token usage recorded since the last compaction; nothing to measure\n`,
    );
    return;
  }
  const fmt = (n: number) => n.toLocaleString('en-US');
  const window =
    meter.windowSource === 'log'
      ? 'window from the log'
      : meter.windowSource === 'model'
        ? `window of ${session.model}`
        : 'window from config (context_window)';
  ctx.stdout(
    `${session.agent} session ${session.session ?? r.shown}: ${fmt(meter.tokens)} of ${fmt(meter.window)} tokens (${meter.percent}%; ${window})\n`,
  );
  ctx.stdout(
    meter.above
      ? `Above ${threshold}%: hand off now (handoff new "<next goal>" --from auto).\n`
      : `Below ${threshold}%: no need to hand off yet.\n`,
  );
  return meter.above ? 'attention' : undefined;
}
