import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { UsageError } from '../core/errors.js';
import type { Status } from '../store/handoff.js';
import { uniquePrefixes } from '../store/id.js';
import { loadHandoffs, warnProblems } from '../store/store.js';
import { handoffJson, printJson, skippedJson, truncate } from '../command/output.js';
import { RULES, scrubRemembered } from '../security/remembered.js';
import { IN_FILES, redactionNotice } from '../security/notice.js';
import { openClean } from '../store/clean.js';

export async function run(ctx: Context, args: ArgsOf<'list'>): Promise<Outcome> {
  const status = args.values.status;
  if (status !== undefined) {
    // handoff.ts loads yaml; list reads everything else from the cache.
    const { STATUSES } = await import('../store/handoff.js');
    if (!STATUSES.includes(status as Status))
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}; got '${status}'`);
  }
  const branch = args.values.branch;
  if (args.values.all) return listAll(ctx, status, branch, args.values.json === true);
  const { items, problems } = await loadHandoffs(ctx);
  const shown = items
    .filter(
      (h) => (status === undefined || h.meta.status === status) && (branch === undefined || h.meta.branch === branch),
    )
    .reverse();
  if (args.values.json) {
    const { scrubForPrint } = await import('../security/secrets.js');
    const { value, notice } = scrubForPrint(
      { handoffs: shown.map(handoffJson), skipped: skippedJson(problems) },
      'the handoffs listed',
    );
    printJson(ctx, value);
    if (notice) ctx.stderr(notice);
  } else if (shown.length === 0) {
    ctx.stdout(
      items.length > 0
        ? 'No handoffs match.\n'
        : problems.length > 0
          ? `No readable handoffs: ${problems.length} file${problems.length === 1 ? '' : 's'} could not be read (see below).\n`
          : 'No handoffs yet. Write one: handoff new "<goal>"\n',
    );
  } else {
    const short = uniquePrefixes(items.map((h) => h.meta.id));
    // Goals are redacted whole, before they are cut to the column: a cut key is not found.
    // The list of them is remembered once found clean (by its digest, store/clean.ts):
    // the same history listed again runs no pattern over a year of goals.
    const remembered = openClean(ctx.cacheFile, RULES);
    const [{ value: goals, kinds }] = await scrubRemembered([shown.map((h) => h.meta.goal)] as const, {
      ...remembered,
      lists: remembered.listsByDigest,
    });
    const notice = redactionNotice(kinds, 'the handoffs listed', IN_FILES);
    if (notice) ctx.stderr(notice);
    const rows = shown.map((h, i) => [
      short.get(h.meta.id)!,
      h.meta.status,
      h.meta.created.slice(0, 10),
      h.meta.branch ?? '(detached)',
      truncate(goals[i]!, 72),
    ]);
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    ctx.stdout(
      `${rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n`,
    );
  }
  return warnProblems(ctx, problems) ? 'failure' : undefined;
}

/** `list --all`: every version of every handoff on local and remote-tracking branches and in the work tree, with where each is. */
async function listAll(ctx: Context, status: string | undefined, branch: string | undefined, json: boolean) {
  const { teamView } = await import('../roadmap/branches.js');
  const { seen, problems } = await teamView(ctx);
  const shown = seen.filter(
    (s) =>
      (status === undefined || s.handoff.meta.status === status) &&
      (branch === undefined || s.handoff.meta.branch === branch || s.refs.includes(branch)),
  );
  if (json) {
    printJson(ctx, {
      handoffs: shown.map((s) => ({ ...handoffJson(s.handoff), refs: s.refs })),
      skipped: skippedJson(problems),
    });
  } else if (shown.length === 0) {
    ctx.stdout(
      seen.length > 0 ? 'No handoffs match.\n' : 'No handoffs on any branch yet. Write one: handoff new "<goal>"\n',
    );
  } else {
    const short = uniquePrefixes(seen.map((s) => s.handoff.meta.id));
    const rows = shown.map((s) => [
      short.get(s.handoff.meta.id)!,
      s.handoff.meta.status,
      s.handoff.meta.created.slice(0, 10),
      truncate(s.refs.join(', '), 40),
      truncate(s.handoff.meta.goal, 60),
    ]);
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    ctx.stdout(
      `${rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n`,
    );
  }
  return warnProblems(ctx, problems) ? 'failure' : undefined;
}
