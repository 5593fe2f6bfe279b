import type { Args } from './spec.js';
import type { Context } from '../context.js';
import { HandoffError } from '../errors.js';
import { updateHandoff } from '../core/handoff.js';
import { findById, loadHandoffs, rewriteItem, warnProblems } from '../io/store.js';
import { newestOpenOnBranch } from './output.js';

export async function run(ctx: Context, args: Args): Promise<number> {
  const { items, problems } = await loadHandoffs(ctx);
  const query = args.positionals[0];
  let handoff;
  if (query !== undefined) {
    handoff = findById(items, query, 'handoff', problems);
  } else {
    warnProblems(ctx, problems);
    const branch = await (await ctx.git()).branch();
    handoff = newestOpenOnBranch(items, branch);
    if (!handoff) throw new HandoffError(`no open handoff on ${branch ? `branch '${branch}'` : 'this detached HEAD'}; name one: handoff done <id>`);
  }
  if (handoff.meta.status === 'done') {
    ctx.stdout(`Handoff ${handoff.meta.id} is already done; nothing changed.\n`);
    return 0;
  }
  if (handoff.meta.status === 'superseded') {
    throw new HandoffError(`handoff ${handoff.meta.id} was superseded by ${handoff.meta.superseded_by ?? 'a later handoff'}; mark that one done instead`);
  }
  await rewriteItem(ctx, handoff.file, updateHandoff(handoff, { status: 'done', finished: ctx.now().toISOString() }));
  ctx.stdout(`Marked ${handoff.meta.id} done: ${handoff.file}\n`);
  return 0;
}
