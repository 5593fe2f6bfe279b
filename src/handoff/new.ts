import path from 'node:path';
import type { ArgsOf, Outcome } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { HandoffError, UsageError } from '../cli/errors.js';
import { draft as drafted, editedBody } from './draft.js';
import { serializeHandoff, updateHandoff, type Handoff, type HandoffMeta } from '../store/handoff.js';
import { checkText } from '../store/pin.js';
import { activePins } from '../pins/scope.js';
import { redactionNotice, scrub } from '../security/secrets.js';
import { operationInProgress, type Git } from '../git/git.js';
import { editText } from './editor.js';
import { readUserFile } from '../store/input.js';
import { createItem, findOpenOnBranch, handoffsDir, loadPins, reread, rewriteItem, warnProblems } from '../store/store.js';
import { readTemplate } from '../store/templates.js';
import { maybeModelDraft } from '../model/new-model.js';
import { withWriterLock } from '../store/writer-lock.js';
import { repairChains } from './repair.js';
import type { TranscriptPart } from '../model/model-input.js';
import { transcriptPart } from '../model/transcript-model.js';

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

async function review(ctx: Context, git: Git, args: ArgsOf<'new'>, draft: string): Promise<string> {
  const messageFile = args.values['message-file'];
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

export async function run(ctx: Context, args: ArgsOf<'new'>): Promise<Outcome> {
  const goal = checkText(args.positionals[0], 'the goal');
  const from = args.values.from;
  const pinCandidates = args.values['pin-candidates'] === true;
  if (from === undefined && pinCandidates) throw new UsageError('--pin-candidates needs a transcript: --from auto or --from <file>');
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

export interface WriteOptions {
  since?: string | undefined;
  /** A transcript: 'auto' or a path (see transcript-source.ts). */
  from?: string | undefined;
  force?: boolean;
  /** Start a new chain: no parent, nothing carried. */
  fresh?: boolean;
  pinCandidates?: boolean;
  /** Keep text that looks like a secret (the user says it is a false positive). */
  allowSecret?: boolean;
  /** The model's pass over the draft; null means "dry run: nothing to write". */
  model?: (facts: Parameters<typeof maybeModelDraft>[2], transcript: TranscriptPart | undefined) => Promise<string | null>;
  /** Settles the final body (editor, message file, or the draft as is). */
  review: (git: Git, draft: string) => Promise<string>;
}

/**
 * The body of `handoff new`, shared with the agent hooks. Returns the new file, or null for a dry run.
 * Writers take turns (writer-lock.ts), so handoffs started at once on one branch form one chain.
 */
export function writeHandoff(ctx: Context, givenGoal: string, options: WriteOptions): Promise<string | null> {
  return withWriterLock(ctx, 'handoff new', async () => {
    const git = await ctx.git();
    await repairChains(ctx, await git.branch());
    return writeLocked(ctx, givenGoal, options);
  });
}

async function writeLocked(ctx: Context, givenGoal: string, options: WriteOptions): Promise<string | null> {
  // Secrets never land: the goal, the file names and the body are redacted before use
  // unless allowSecret says a match is a false positive.
  const kinds: string[] = [];
  const clean = <T>(value: T): T => {
    if (options.allowSecret) return value;
    const out = scrub(value);
    kinds.push(...out.kinds);
    return out.value;
  };
  const goal = clean(givenGoal);
  const git = await ctx.git();
  const [branch, head, author, pins] = await Promise.all([git.branch(), git.head(), git.author(), loadPins(ctx)]);
  const { found: open, problems } = await findOpenOnBranch(ctx, branch);
  warnProblems(ctx, problems);
  const parent = options.fresh ? undefined : open;
  if (options.fresh && open) ctx.stderr(`handoff: starting a new chain; ${open.meta.id} stays open (handoff done ${open.meta.id.slice(0, 12)} when it is finished)`);
  const base = await findBase(ctx, git, options.since, parent, head);
  const [changes, commits, template] = await Promise.all([
    git.changesSince(base, ctx.config.untracked_dir_files),
    base === head ? Promise.resolve([]) : git.commitsSince(base, ctx.config.draft_commits),
    readTemplate('handoff.md'),
  ]);
  // Our own records are not the work.
  const files = clean(changes.filter((f) => !f.path.startsWith('.handoff/')));
  // A transcript adds what git cannot know; see transcript-source.ts.
  const { from } = options;
  const source = from === undefined ? undefined : await import('../transcripts/transcript-source.js');
  const transcript = source && from !== undefined ? await source.readFrom(ctx, from, options.force === true) : undefined;
  if (from === 'auto' && !transcript) ctx.stderr('handoff: no session of a supported agent found for this repository; drafting from git alone');
  const extraction = source && transcript ? await source.draftParts(ctx, transcript, files, options.pinCandidates === true) : undefined;
  const { body: draft, carried, superseded } = drafted(template, { goal, files, commits, parent, ...(parent ? { parentFile: parent.file } : {}), base, ...(extraction ? { extraction } : {}), pinned: activePins(pins.items).map((p) => p.text) });
  const offered = options.model ? await options.model({ goal, files, commits, draft }, transcript ? transcriptPart(transcript.extraction) : undefined) : draft;
  if (offered === null) return null; // --dry-run: the request was printed, nothing is written
  const body = clean(checkText(await options.review(git, offered), 'the handoff body'));
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
  if (source && transcript && options.pinCandidates === true) await source.pinCandidates(ctx, transcript, author);
  if (parent) {
    await rewriteItem(ctx, parent.file, updateHandoff(await reread(ctx, parent), { status: 'superseded', superseded_by: meta.id }));
    const replaced = superseded > 0 ? `; ${superseded} earlier decision${superseded === 1 ? '' : 's'} marked superseded` : '';
    ctx.stderr(`handoff: ${parent.meta.id} is now superseded by this one (the draft carried ${carried} of its open item${carried === 1 ? '' : 's'}${replaced})`);
  }
  const fileCount = files.reduce((n, f) => n + (f.files ?? 1), 0);
  ctx.stderr(`handoff: ${fileCount.toLocaleString('en-US')} file${fileCount === 1 ? '' : 's'} and ${commits.length} commit${commits.length === 1 ? '' : 's'} since ${base ? base.slice(0, 12) : 'the start'}`);
  return file;
}
