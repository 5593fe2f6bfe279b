import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite } from '../git-hooks/validated.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';
import { updateHandoff, type Handoff } from '../store/handoff.js';
import { findItem, findOpenOnBranch, loadHandoffs, reread, warnProblems } from '../store/store.js';
import { rewriteItem } from '../store/writes.js';

export function run(ctx: Context, args: ArgsOf<'done'>): Promise<Outcome> {
  return withWriterLock(ctx, 'handoff done', () => locked(ctx, args));
}

async function locked(ctx: Context, args: ArgsOf<'done'>): Promise<Outcome> {
  const query = args.positionals[0];
  let handoff: Handoff | undefined;
  if (query !== undefined) {
    const { items, problems } = await loadHandoffs(ctx);
    handoff = await findItem(ctx, items, query, 'handoff', problems);
  } else {
    const branch = await (await ctx.git()).branch();
    const open = await findOpenOnBranch(ctx, branch);
    warnProblems(ctx, open.problems);
    handoff = open.found;
    if (!handoff)
      throw new HandoffError(
        `no open handoff on ${branch ? `branch '${branch}'` : 'this detached HEAD'}; name one: handoff done <id>`,
      );
  }
  if (handoff.meta.status === 'done') {
    ctx.stdout(`Handoff ${handoff.meta.id} is already done; nothing changed.\n`);
    return;
  }
  if (handoff.meta.status === 'superseded') {
    throw new HandoffError(
      `handoff ${handoff.meta.id} was superseded by ${handoff.meta.superseded_by ?? 'a later handoff'}; mark that one done instead`,
    );
  }
  await rewriteItem(
    ctx,
    handoff.file,
    updateHandoff(await reread(ctx, handoff), { status: 'done', finished: ctx.now().toISOString() }),
  );
  await afterWrite(ctx);
  ctx.stdout(`Marked ${handoff.meta.id} done: ${handoff.file}\n`);
}
