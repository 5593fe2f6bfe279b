import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite } from '../git-hooks/validated.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { retirePin } from '../store/pin.js';
import { findItem, loadPins, reread } from '../store/store.js';
import { rewriteItem } from '../store/writes.js';

export function run(ctx: Context, args: ArgsOf<'unpin'>): Promise<Outcome> {
  return withWriterLock(ctx, 'handoff unpin', () => locked(ctx, args));
}

async function locked(ctx: Context, args: ArgsOf<'unpin'>): Promise<Outcome> {
  const { items, problems } = await loadPins(ctx);
  const pin = await findItem(ctx, items, args.positionals[0], 'pin', problems);
  if (pin.meta.status === 'retired') {
    ctx.stdout(`Pin ${pin.meta.id} is already retired; nothing changed.\n`);
    return;
  }
  const reason = args.values.reason;
  await rewriteItem(ctx, pin.file, retirePin(await reread(ctx, pin), ctx.now().toISOString(), reason));
  await afterWrite(ctx);
  await (await import('../agents/pins-block.js')).refreshBlocks(ctx);
  ctx.stdout(`Retired pin ${pin.meta.id}; ${pin.file} stays as history.\n`);
}
