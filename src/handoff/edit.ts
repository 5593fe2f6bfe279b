// `handoff edit [id]`: the handoff file in the editor `git commit` would open, checked
// before it is written. The editor runs without the writer lock (a review can take
// minutes); the file is written only if nobody changed it meanwhile.
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';
import { parseHandoff, type Handoff } from '../store/handoff.js';
import { findItem, findOpenOnBranch, loadHandoffs, warnProblems } from '../store/store.js';
import { rewriteItem } from '../store/writes.js';
import { readText } from '../store/fs.js';
import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite } from '../git-hooks/validated.js';
import { scrub } from '../security/secrets.js';
import { redactionNotice } from '../security/notice.js';
import { editText, keepEdit } from './editor.js';

async function chosen(ctx: Context, query: string | undefined): Promise<Handoff> {
  if (query !== undefined) {
    const { items, problems } = await loadHandoffs(ctx);
    return findItem(ctx, items, query, 'handoff', problems);
  }
  const branch = await (await ctx.git()).branch();
  const open = await findOpenOnBranch(ctx, branch);
  warnProblems(ctx, open.problems);
  if (!open.found)
    throw new HandoffError(
      `no open handoff on ${branch ? `branch '${branch}'` : 'this detached HEAD'}; name one: handoff edit <id>`,
    );
  return open.found;
}

export async function run(ctx: Context, args: ArgsOf<'edit'>): Promise<Outcome> {
  const handoff = await chosen(ctx, args.positionals[0]);
  const full = path.resolve(ctx.root, handoff.file);
  const before = (await readText(full)) ?? '';
  const editor = await (await ctx.git()).editor();
  if (!editor || editor === ':')
    throw new HandoffError('no editor: set GIT_EDITOR, core.editor, VISUAL or EDITOR (as for git commit)');
  const edited = await editText(editor, before, path.basename(handoff.file));
  if (edited === before) {
    ctx.stdout(`${handoff.file} is unchanged; nothing written.\n`);
    return;
  }
  if (edited.trim() === '') throw new HandoffError('aborting: the handoff was emptied in the editor; nothing written');
  try {
    await save(ctx, handoff, before, edited, args.values['allow-secret'] === true);
  } catch (error) {
    // Whatever stops the write, what the user typed survives it.
    throw await keepEdit(ctx, edited, error);
  }
  ctx.stdout(`Edited ${handoff.file}\n`);
}

/** The edited text checked and written over the file, as a whole or not at all. */
async function save(ctx: Context, handoff: Handoff, before: string, edited: string, allowSecret: boolean) {
  const { value: text, kinds } = allowSecret ? { value: edited, kinds: [] } : scrub(edited);
  // Named as the edited text: the file itself is unchanged, and the error's line is the text's.
  const parsed = parseHandoff(text, 'the edited handoff');
  if (parsed.meta.id !== handoff.meta.id)
    throw new HandoffError(
      `${handoff.file}: the id is the file's name and cannot change (was ${handoff.meta.id}, edited to ${parsed.meta.id}); nothing written`,
    );
  const notice = redactionNotice(
    kinds,
    'the edited handoff',
    'handoff edit --allow-secret keeps them (false positives)',
  );
  if (notice) ctx.stderr(notice);
  const full = path.resolve(ctx.root, handoff.file);
  await withWriterLock(ctx, 'handoff edit', async () => {
    if ((await readText(full)) !== before)
      throw new HandoffError(`${handoff.file} changed while it was in the editor; nothing written`);
    await rewriteItem(ctx, handoff.file, text);
    await afterWrite(ctx);
  });
}
