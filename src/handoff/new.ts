// `handoff new`: the command's own part, the review step (editor, --message-file, or the
// draft as is) and the model's pass; drafting and writing are write.ts's, shared with the
// agents' compaction hooks.
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { editedBody } from './draft.js';
import { checkText } from '../store/pin.js';
import type { Git } from '../git/git.js';
import { editText } from './editor.js';
import { readUserFile } from '../store/input.js';
import { readTemplate } from '../store/templates.js';
import { maybeModelDraft } from '../model/new-model.js';
import { writeHandoff } from './write.js';

async function review(ctx: Context, git: Git, args: ArgsOf<'new'>, draft: string): Promise<string> {
  const messageFile = args.values['message-file'];
  if (messageFile !== undefined) {
    const body =
      messageFile === '-'
        ? new TextDecoder().decode(await ctx.readStdin())
        : await readUserFile(path.resolve(ctx.cwd, messageFile), messageFile);
    if (body.trim() === '') throw new HandoffError(`${messageFile}: the handoff body is empty; nothing written`);
    return body;
  }
  const edit = args.values.edit === undefined ? ctx.stdinIsTTY() : args.values.edit === true;
  if (!edit) return draft;
  const editor = await git.editor();
  if (!editor || editor === ':') return draft;
  const instructions = await readTemplate('edit-instructions.md');
  const body = editedBody(await editText(editor, instructions + draft, 'HANDOFF_EDITMSG.md'), instructions);
  if (body === '') throw new HandoffError('aborting: the handoff body was emptied in the editor; nothing written');
  return body;
}

export async function run(ctx: Context, args: ArgsOf<'new'>): Promise<Outcome> {
  const goal = checkText(args.positionals[0], 'the goal');
  const from = args.values.from;
  const pinCandidates = args.values['pin-candidates'] === true;
  if (from === undefined && pinCandidates)
    throw new UsageError('--pin-candidates needs a transcript: --from auto or --from <file>');
  const file = await writeHandoff(ctx, goal, {
    since: args.values.since,
    from,
    force: args.values.force === true,
    fresh: args.values.fresh === true,
    pinCandidates,
    allowSecret: args.values['allow-secret'] === true,
    model: (facts, transcript) => maybeModelDraft(ctx, args, facts, transcript),
    review: (git, draft) => review(ctx, git, args, draft),
  });
  if (file !== null) {
    ctx.stdout(`${ctx.rel(file)}\n`);
    await (await import('../init/init-hint.js')).hintInit(ctx);
  }
}
