// `handoff new`: the command's own part, the review step (editor, --message-file, or the
// draft as is) and the model's pass; drafting and writing are write.ts's, shared with the
// agents' compaction hooks.
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { editedBody } from './draft.js';
import { checkText } from '../store/input.js';
import type { Git } from '../git/git.js';
import { readUserFile } from '../store/input.js';
import { readTemplate } from '../store/templates.js';
import { askModelChoice, maybeModelDraft } from '../model/new-model.js';
import { writeHandoff } from './write.js';
import { loadPins } from '../store/store.js';
import { activePins } from '../store/pin-scope.js';
import { plural } from '../store/markdown.js';
import { WRITTEN_BY } from '../store/items.js';
import { TITLE } from '../store/sections.js';
import { mergeBody } from './merge-body.js';
import { initHint } from '../init/init-hint.js';

/** The body, and the text typed in the editor when one opened (kept if the handoff cannot be written). */
async function review(
  ctx: Context,
  git: Git,
  args: ArgsOf<'new'>,
  draft: string,
): Promise<{ body: string; typed?: string }> {
  const messageFile = args.values['message-file'];
  if (messageFile !== undefined) {
    const body =
      messageFile === '-'
        ? new TextDecoder().decode(await ctx.readStdin())
        : await readUserFile(path.resolve(ctx.cwd, messageFile), messageFile);
    if (body.trim() === '') throw new HandoffError(`${messageFile}: the handoff body is empty; nothing written`);
    if (args.values.replace === true) return { body };
    const merged = mergeBody(draft, body);
    const what = messageFile === '-' ? 'stdin' : messageFile;
    const list = (titles: string[]) => (titles.length > 0 ? titles.join(', ') : 'none');
    ctx.stderr(
      `handoff: ${what} wrote ${list(merged.replaced)}; kept from the draft: ${list(merged.kept)} (--replace: the file alone)`,
    );
    return { body: merged.body };
  }
  const edit = args.values.edit === undefined ? ctx.stdinIsTTY() : args.values.edit === true;
  if (!edit) return { body: draft };
  const editor = await git.editor();
  if (!editor || editor === ':') return { body: draft };
  const instructions = await readTemplate('edit-instructions.md');
  // Loaded only when an editor opens: `new --no-edit` and the agents' hooks never do.
  const { editText } = await import('./editor.js');
  const body = editedBody(await editText(editor, instructions + draft, 'HANDOFF_EDITMSG.md'), instructions);
  if (body === '') throw new HandoffError('aborting: the handoff body was emptied in the editor; nothing written');
  return { body, typed: body };
}

async function readSections(ctx: Context, file: string | undefined) {
  if (file === undefined) return undefined;
  const text =
    file === '-'
      ? new TextDecoder().decode(await ctx.readStdin())
      : await readUserFile(path.resolve(ctx.cwd, file), file);
  const { parseSummary } = await import('./summary-form.js');
  const parsed = parseSummary(text);
  if (parsed.items === 0)
    throw new HandoffError(
      `${file === '-' ? 'stdin' : file}: none of the handoff's sections with items; expected \`## <section>\` headings (## ${TITLE.decisions}, ## ${TITLE.next_steps}, ...) each with \`- \` items; nothing written`,
    );
  return parsed;
}

type Sections = Awaited<ReturnType<typeof readSections>>;

/** The sections someone wrote (an agent's /handoff) joined to the body: nothing carried is replaced. */
async function withSections(ctx: Context, git: Git, parsed: Sections, body: string): Promise<string> {
  if (!parsed) return body;
  const [tracked, changed, pins] = await Promise.all([git.trackedPaths(), git.uncommittedPaths(), loadPins(ctx)]);
  const known = new Set([...tracked, ...changed]);
  const { foldSummary } = await import('./summary-fold.js');
  const folded = foldSummary({
    body,
    summary: parsed,
    provenance: WRITTEN_BY,
    known: (p) => known.has(p),
    pins: activePins(pins.items).map((p) => p.text),
  });
  const flagged = folded.unknownPaths.length;
  ctx.stderr(
    `handoff: --sections added ${plural(folded.added, 'item')}${flagged ? `; ${plural(flagged, 'path')} git does not know flagged` : ''}${folded.restated ? `; ${plural(folded.restated, 'item')} the handoff already holds in other words left out` : ''}${folded.pinItems ? `; ${plural(folded.pinItems, 'restated pin')} left to .handoff/pins/` : ''}`,
  );
  return folded.body;
}

export async function run(ctx: Context, args: ArgsOf<'new'>): Promise<Outcome> {
  const goal = checkText(args.positionals[0], 'the goal');
  const from = args.values.from;
  const pinCandidates = args.values['pin-candidates'] === true;
  const replace = args.values.replace === true;
  if (replace && args.values['message-file'] === undefined)
    throw new UsageError('--replace needs a body to replace the draft with: -F <file> or -F -');
  if (from === undefined && pinCandidates)
    throw new UsageError('--pin-candidates needs a transcript: --from auto or --from <file>');
  if (args.values.sections === '-' && args.values['message-file'] === '-')
    throw new UsageError('--sections - and -F - both read stdin; give one of them a file');
  // Read before the writer lock is taken: a file that is not there writes nothing.
  const sections = await readSections(ctx, args.values.sections);
  // Neither new nor its hooks set up what init does: asked now, beside the writing, printed after.
  const hint = initHint(ctx);
  hint.catch(() => {});
  const choice = askModelChoice(ctx, args);
  // Asked beside the model's settings, so that one git process answers both (git-records.ts settings).
  const author = ctx.git().then((git) => git.author());
  author.catch(() => {}); // awaited with HEAD; a failure surfaces there
  let typed: string | undefined;
  const written = await writeHandoff(ctx, goal, {
    since: args.values.since,
    from,
    force: args.values.force === true,
    fresh: args.values.fresh === true,
    pinCandidates,
    allowSecret: args.values['allow-secret'] === true,
    carries: !replace,
    author,
    model: (facts, transcript) => maybeModelDraft(ctx, args, facts, transcript, choice),
    review: async (git, draft) => {
      const reviewed = await review(ctx, git, args, draft);
      typed = reviewed.typed;
      return withSections(ctx, git, sections, reviewed.body);
    },
  }).catch(async (error: unknown) => {
    // The body is checked and its size known only as the file is made: what the user typed
    // in the editor survives a refusal there (editor.ts keepEdit).
    if (typed === undefined) throw error;
    const { keepEdit } = await import('./editor.js');
    throw await keepEdit(ctx, typed, error);
  });
  if (written !== null) {
    ctx.stdout(`${ctx.rel(written.file)}\n`);
    const line = await hint;
    if (line) ctx.stderr(line);
  }
}
