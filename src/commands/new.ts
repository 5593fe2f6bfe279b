import path from 'node:path';
import type { Args } from './spec.js';
import type { Context } from '../context.js';
import { HandoffError, UsageError } from '../errors.js';
import { draftBody, editedBody } from '../core/draft.js';
import { serializeHandoff, updateHandoff, type Handoff, type HandoffMeta } from '../core/handoff.js';
import { checkText } from '../core/pin.js';
import { redactionNotice, scrub } from '../core/secrets.js';
import { operationInProgress, type Git } from '../io/git.js';
import { editText } from '../io/editor.js';
import { readUserFile } from '../io/input.js';
import { createItem, handoffsDir, loadHandoffs, rewriteItem, warnProblems } from '../io/store.js';
import { readTemplate } from '../io/templates.js';
import { newestOpenOnBranch } from './output.js';

/** Where the work began: --since, else the parent's head, else the merge-base with the default branch, else the root. */
async function findBase(ctx: Context, git: Git, since: string | undefined, parent: Handoff | undefined, head: string | null): Promise<string | null> {
  if (since !== undefined) {
    const base = await git.resolveCommit(since);
    if (!base) throw new UsageError(`--since '${since}' is not a commit in this repository`);
    return base;
  }
  if (!head) return null;
  if (parent?.meta.head) {
    if (await git.resolveCommit(parent.meta.head)) return parent.meta.head;
    ctx.stderr(`handoff: warning: the parent's commit ${parent.meta.head.slice(0, 12)} is gone (rebased?); using the default branch instead`);
  }
  const defaultBranch = await git.defaultBranch(ctx.config.default_branch);
  const mergeBase = defaultBranch ? await git.mergeBase('HEAD', defaultBranch) : null;
  return mergeBase ?? (await git.rootCommit());
}

async function review(ctx: Context, git: Git, args: Args, draft: string): Promise<string> {
  const messageFile = args.values['message-file'] as string | undefined;
  if (messageFile !== undefined) {
    const body = messageFile === '-' ? new TextDecoder().decode(await ctx.readStdin()) : await readUserFile(path.resolve(ctx.cwd, messageFile), messageFile);
    if (body.trim() === '') throw new HandoffError(`${messageFile}: the handoff body is empty; nothing written`);
    return body;
  }
  const edit = args.values.edit === undefined ? ctx.stdinIsTTY : args.values.edit === true;
  if (!edit) return draft;
  const editor = await git.editor();
  if (!editor || editor === ':') return draft;
  const instructions = await readTemplate('edit-instructions.md');
  const body = editedBody(await editText(editor, instructions + draft, 'HANDOFF_EDITMSG.md'), instructions);
  if (body === '') throw new HandoffError('aborting: the handoff body was emptied in the editor; nothing written');
  return body;
}

export async function run(ctx: Context, args: Args): Promise<number> {
  // Secrets never land: the goal, the file names and the body are redacted before use
  // unless --allow-secret says a match is a false positive.
  const allow = args.values['allow-secret'] === true;
  const kinds: string[] = [];
  const clean = <T>(value: T): T => {
    if (allow) return value;
    const out = scrub(value);
    kinds.push(...out.kinds);
    return out.value;
  };
  const goal = clean(checkText(args.positionals[0]!, 'the goal'));
  const git = await ctx.git();
  const [{ items: handoffs, problems }, branch, head, author] = await Promise.all([loadHandoffs(ctx), git.branch(), git.head(), git.author()]);
  warnProblems(ctx, problems);
  const parent = newestOpenOnBranch(handoffs, branch);
  const base = await findBase(ctx, git, args.values.since as string | undefined, parent, head);
  const [changes, commits, template] = await Promise.all([
    git.changesSince(base),
    base === head ? Promise.resolve([]) : git.commitsSince(base, ctx.config.draft_commits),
    readTemplate('handoff.md'),
  ]);
  // Our own records are not the work.
  const files = clean(changes.filter((f) => !f.path.startsWith('.handoff/')));
  const draft = draftBody(template, { goal, files, commits, parent, ...(parent ? { parentFile: parent.file } : {}), base });
  const body = clean(checkText(await review(ctx, git, args, draft), 'the handoff body'));
  const notice = redactionNotice(kinds, 'the goal, file names and body before writing', 'handoff new --allow-secret keeps them (false positives)');
  if (notice) ctx.stderr(notice);

  const meta: HandoffMeta = {
    id: ctx.newId(),
    goal,
    status: 'open',
    created: ctx.now().toISOString(),
    author,
    branch,
    base,
    head,
    parent: parent?.meta.id ?? null,
    files,
  };
  const operation = await operationInProgress(git);
  if (operation) ctx.stderr(`handoff: note: ${operation} is in progress; the file list shows the work tree as it is now, conflicts included`);
  const file = await createItem(ctx, handoffsDir(ctx), meta.id, serializeHandoff(meta, body));
  if (parent) {
    await rewriteItem(ctx, parent.file, updateHandoff(parent, { status: 'superseded', superseded_by: meta.id }));
    ctx.stderr(`handoff: ${parent.meta.id} is now superseded by this one`);
  }
  ctx.stderr(`handoff: ${files.length} file${files.length === 1 ? '' : 's'} and ${commits.length} commit${commits.length === 1 ? '' : 's'} since ${base ? base.slice(0, 12) : 'the start'}`);
  ctx.stdout(`${ctx.rel(file)}\n`);
  return 0;
}
