// `handoff reopen <id>`: undo a `new` that continued the wrong handoff, or a `done` said
// too early. The handoff is open again; the open handoff that superseded it, if any, is
// marked superseded by it in turn, so `resume` and the next `new` continue this one.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { updateHandoff } from '../store/handoff.js';
import { findItem, loadHandoffs, reread } from '../store/store.js';
import { rewriteItem } from '../store/writes.js';
import { afterWrite } from '../git-hooks/validated.js';

export async function run(ctx: Context, args: ArgsOf<'reopen'>): Promise<Outcome> {
  const { items, problems } = await loadHandoffs(ctx);
  const handoff = await findItem(ctx, items, args.positionals[0], 'handoff', problems);
  if (handoff.meta.status === 'open') {
    ctx.stdout(`Handoff ${handoff.meta.id} is already open; nothing changed.\n`);
    return;
  }
  const later = handoff.meta.superseded_by ? items.find((h) => h.meta.id === handoff.meta.superseded_by) : undefined;
  await rewriteItem(
    ctx,
    handoff.file,
    updateHandoff(await reread(ctx, handoff), { status: 'open', superseded_by: undefined, finished: undefined }),
  );
  if (later && later.meta.status === 'open') {
    await rewriteItem(
      ctx,
      later.file,
      updateHandoff(await reread(ctx, later), { status: 'superseded', superseded_by: handoff.meta.id }),
    );
    ctx.stderr(`handoff: ${later.meta.id} is now superseded by ${handoff.meta.id}`);
  }
  await afterWrite(ctx);
  ctx.stdout(`Reopened ${handoff.meta.id}: ${handoff.file}\n`);
}
