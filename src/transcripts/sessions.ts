// `handoff sessions`: the agent sessions found for this repository, so a user can pick
// one for `handoff new --from <file>`.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { printJson } from '../command/output.js';
import { computeMeter } from './meter-usage.js';
import { discoverSessions } from './discovery.js';
import { readCandidate } from './transcript-source.js';

export async function run(ctx: Context, args: ArgsOf<'sessions'>): Promise<Outcome> {
  const rows = [];
  for (const c of await discoverSessions(ctx.root, ctx.env)) {
    const r = await readCandidate(ctx, c).catch(() => undefined);
    if (!r) continue;
    const meter = computeMeter(r.extraction.usage, ctx.config.context_window, ctx.config.meter_threshold);
    rows.push({
      agent: r.opened.agent,
      session: r.extraction.sessionId ?? null,
      file: r.shown,
      start: r.extraction.start ?? null,
      last: r.extraction.last ?? c.mtime.toISOString(),
      size: c.size,
      context: meter ? { tokens: meter.tokens, window: meter.window, percent: meter.percent } : null,
    });
  }
  if (args.values.json === true) {
    printJson(ctx, { sessions: rows });
    return;
  }
  if (rows.length === 0) {
    ctx.stdout('No agent sessions found for this repository.\n');
    return;
  }
  for (const row of rows) {
    const size = row.size >= 1 << 20 ? `${(row.size / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(row.size / 1024)} KB`;
    const context = row.context ? `${row.context.percent}% full` : 'context unknown';
    ctx.stdout(
      `${row.agent}  ${row.session ?? '-'}  started ${row.start ?? '?'}  last ${row.last}  ${size}  ${context}\n  ${row.file}\n`,
    );
  }
}
