import { withWriterLock } from '../store/writer-lock.js';
import type { Args } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { retirePin } from '../store/pin.js';
import { findItem, loadPins, reread, rewriteItem } from '../store/store.js';

export function run(ctx: Context, args: Args): Promise<number> {
  return withWriterLock(ctx, 'handoff unpin', () => locked(ctx, args));
}

async function locked(ctx: Context, args: Args): Promise<number> {
  const { items, problems } = await loadPins(ctx);
  const pin = await findItem(ctx, items, args.positionals[0]!, 'pin', problems);
  if (pin.meta.status === 'retired') {
    ctx.stdout(`Pin ${pin.meta.id} is already retired; nothing changed.\n`);
    return 0;
  }
  const reason = typeof args.values.reason === 'string' ? args.values.reason : undefined;
  await rewriteItem(ctx, pin.file, retirePin(await reread(ctx, pin), ctx.now().toISOString(), reason));
  ctx.stdout(`Retired pin ${pin.meta.id}; ${pin.file} stays as history.\n`);
  return 0;
}
