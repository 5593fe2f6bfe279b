import path from 'node:path';
import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite } from '../git-hooks/validated.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { serializePin, type PinMeta } from '../store/pin.js';
import { checkText } from '../store/input.js';
import { activePins, checkScope } from '../store/pin-scope.js';
import { scrub } from '../security/secrets.js';
import { kindList } from '../security/notice.js';
import { decodeUtf8, readUserFile } from '../store/input.js';
import { findItem, loadPins, pinsDir, warnProblems } from '../store/store.js';
import { createItem } from '../store/writes.js';

async function constraintText(ctx: Context, args: ArgsOf<'pin'>): Promise<string> {
  const given = args.positionals[0];
  const file = args.values.file;
  if (given !== undefined && file !== undefined)
    throw new UsageError('give the constraint as an argument or with --file, not both');
  if (given !== undefined && given !== '-') return given;
  if (file !== undefined) return readUserFile(path.resolve(ctx.cwd, file), file);
  if (ctx.stdinIsTTY() && given !== '-')
    throw new UsageError('handoff pin needs the constraint: handoff pin "<text>", --file F, or text on stdin');
  return decodeUtf8(await ctx.readStdin(), 'stdin');
}

export async function run(ctx: Context, args: ArgsOf<'pin'>): Promise<Outcome> {
  const text = checkText(await constraintText(ctx, args), 'the pin text');
  // Pins are kept byte for byte, so a secret cannot be redacted out of one: refuse it.
  const found = scrub(text).kinds;
  if (found.length > 0 && args.values['allow-secret'] !== true) {
    throw new HandoffError(
      `the pin text looks like it holds a secret (${kindList(found)}); nothing written. Remove it, or pass --allow-secret if it is a false positive`,
    );
  }
  const scope = args.values.scope ?? [];
  for (const glob of scope) {
    const problem = checkScope(glob);
    if (problem) throw new UsageError(problem);
  }
  // Superseding reads one pin and writes another: take turns with the other writers.
  const write = async (): Promise<Outcome> => {
    const { items: pins, problems } = await loadPins(ctx);
    warnProblems(ctx, problems);
    let supersedes: string | undefined;
    if (args.values.supersedes !== undefined) {
      const old = await findItem(ctx, pins, args.values.supersedes, 'pin', problems);
      supersedes = old.meta.id;
      // Only an active pin can be replaced: a second pin superseding the same one would leave
      // two active pins where the user meant one, and a retired pin applies no more.
      const newer = pins.find((p) => p.meta.supersedes === supersedes);
      if (newer)
        throw new HandoffError(`pin ${supersedes} is already superseded by ${newer.meta.id}; supersede that one`);
      if (old.meta.status === 'retired') throw new HandoffError(`pin ${supersedes} is retired; nothing to supersede`);
    }

    const same = activePins(pins).find((p) => p.text === text && sameScope(p.meta.scope, scope));
    if (same && !supersedes) {
      ctx.stdout(`Already pinned as ${same.meta.id} (${same.file}); nothing written.\n`);
      return;
    }
    const git = await ctx.git();
    const meta: PinMeta = {
      id: ctx.newId(),
      created: ctx.now().toISOString(),
      author: await git.author(),
      status: 'active',
      ...(scope.length > 0 ? { scope } : {}),
      ...(supersedes ? { supersedes } : {}),
    };
    const file = await createItem(ctx, pinsDir(ctx), meta.id, serializePin(meta, text));
    await afterWrite(ctx);
    await (await import('../agents/pins-block.js')).refreshBlocks(ctx);
    ctx.stdout(`Pinned ${meta.id}${supersedes ? `, superseding ${supersedes}` : ''}: ${ctx.rel(file)}\n`);
    await (await import('../init/init-hint.js')).hintInit(ctx);
  };
  return args.values.supersedes !== undefined ? withWriterLock(ctx, 'handoff pin --supersedes', write) : write();
}

function sameScope(a: readonly string[] | undefined, b: readonly string[]): boolean {
  const x = [...(a ?? [])].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
