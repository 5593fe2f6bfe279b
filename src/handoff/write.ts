// Drafting and writing a handoff, shared by `handoff new` and the agents' compaction
// hooks: the parent, the base, git's facts, a transcript, the model's pass, the review,
// then the file and the parent superseded, under the writer lock.
import type { Context } from '../command/context.js';
import { UsageError } from '../core/errors.js';
import { draft as drafted } from './draft.js';
import type { FileChange, Handoff, HandoffMeta } from '../store/handoff.js';
import { plainText } from '../store/plain-front-matter.js';
import { changeOpen } from '../store/change-open.js';
import { checkText } from '../store/input.js';
import { activePins } from '../store/pin-scope.js';
import { scrub } from '../security/secrets.js';
import { redactionNotice } from '../security/notice.js';
import type { Git } from '../git/git.js';
import { findOpenOnBranch, loadHandoffs, loadPins, rereadText, warnProblems, wholeTreeRead } from '../store/store.js';
import { createHandoff, rewriteItems } from '../store/writes.js';
import { readTemplate } from '../store/templates.js';
import { withWriterLock } from '../store/writer-lock.js';
import { repairChains } from './repair.js';
import type { ModelInput, TranscriptPart } from '../model/model-input.js';
import { transcriptPart } from '../model/transcript-model.js';
import { afterWrite } from '../git-hooks/validated.js';
import { chainGoal, firstRequest } from './goal.js';
import { chainCompleted, standingDecisions } from './living.js';
import { thousands } from '../store/markdown.js';
import { chainOf, prepareView } from '../store/history-view.js';

/** The parent and its ancestors, read alone when this run has not read every handoff (store/history-view.ts). */
async function parentChain(ctx: Context, parent: Handoff): Promise<Handoff[]> {
  if (!wholeTreeRead(ctx)) {
    const chain = await chainOf(ctx, parent);
    if (chain) return chain;
  }
  return (await loadHandoffs(ctx)).items;
}

/** Where the work began: --since, else the parent's head, else the merge-base with the default branch, else the root. */
async function findBase(
  ctx: Context,
  git: Git,
  since: string | undefined,
  parent: Handoff | undefined,
  head: string | null,
  parentHead: Promise<string | null> | undefined,
): Promise<string | null> {
  if (since !== undefined) {
    const base = await git.resolveCommit(since);
    if (!base) throw new UsageError(`--since '${since}' is not a commit in this repository`);
    return base;
  }
  if (!head) return null;
  if (parent?.meta.head) {
    if (await parentHead) return parent.meta.head;
    ctx.stderr(
      `handoff: warning: the parent's commit ${parent.meta.head.slice(0, 12)} is gone (rebased?); using the default branch instead`,
    );
  }
  const defaultBranch = await git.defaultBranch(ctx.config.default_branch);
  const mergeBase = defaultBranch ? await git.mergeBase('HEAD', defaultBranch) : null;
  return mergeBase ?? (await git.rootCommit());
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
  model?: (facts: Omit<ModelInput, 'pins'>, transcript: TranscriptPart | undefined) => Promise<string | null>;
  /** False when the reviewed body replaces the draft whole (`new -F --replace`): nothing is carried. */
  carries?: boolean;
  /**
   * A continuation written at an agent's compaction: `givenGoal` is only the fallback; the
   * chain's goal (the parent's, else the session's first request) is kept, and `step`
   * says what this handoff was for.
   */
  continuation?: { step: string };
  /** The author's `name <email>` when the caller asked git already (`new` asks with its settings: git-records.ts settings). */
  author?: Promise<string>;
  /** Settles the final body (editor, message file, or the draft as is). */
  review: (git: Git, draft: string) => Promise<string>;
}

/**
 * The body of `handoff new`, shared with the agent hooks. Returns the new file, or null for a dry run.
 * Writers take turns (writer-lock.ts), so handoffs started at once on one branch form one chain.
 */
export function writeHandoff(
  ctx: Context,
  givenGoal: string,
  options: WriteOptions,
): Promise<{ file: string; goal: string } | null> {
  return withWriterLock(ctx, 'handoff new', async () => {
    const git = await ctx.git();
    await repairChains(ctx, await git.branch());
    const written = await writeLocked(ctx, givenGoal, options);
    if (written !== null) await afterWrite(ctx);
    return written;
  });
}

async function writeLocked(
  ctx: Context,
  givenGoal: string,
  options: WriteOptions,
): Promise<{ file: string; goal: string } | null> {
  // Secrets never land: the goal, the file names and the body are redacted before use
  // unless allowSecret says a match is a false positive.
  const kinds: string[] = [];
  const clean = <T>(value: T): T => {
    if (options.allowSecret) return value;
    const out = scrub(value);
    kinds.push(...out.kinds);
    return out.value;
  };
  const git = await ctx.git();
  const [branch, pins] = await Promise.all([git.branch(), loadPins(ctx)]);
  const { found: open, problems } = await findOpenOnBranch(ctx, branch);
  const parent = options.fresh ? undefined : open;
  // HEAD from git's files when they say it plainly (repo.ts fixedHead), else from git.
  const [head, author] = await Promise.all([git.fixedHead() ?? git.head(), options.author ?? git.author()]);
  warnProblems(ctx, problems);
  if (options.fresh && open)
    ctx.stderr(
      `handoff: starting a new chain; ${open.meta.id} stays open (handoff done ${open.meta.id.slice(0, 12)} when it is finished)`,
    );
  const history = (from: string | null) =>
    Promise.all([
      git.changesSince(from, ctx.config.untracked_dir_files, head),
      from === head ? Promise.resolve([]) : git.commitsSince(from, ctx.config.draft_commits),
      from && from !== head ? git.ownPathsSince(from) : null,
    ]);
  // The parent's commit is the base unless it is gone (findBase): its history is asked for
  // at once, and whether the commit is there only when git could not answer that (then the
  // history is dropped, or its failure surfaces). The hash is hex: handoff.ts refuses the rest.
  const guess = options.since === undefined && head ? parent?.meta.head : undefined;
  const early = guess ? history(guess) : undefined;
  early?.catch(() => {});
  const parentHead = early?.then(
    () => guess!,
    () => git.resolveCommit(guess!),
  );
  parentHead?.catch(() => {}); // awaited by findBase; a failure surfaces there
  // Read while git answers: the parent's chain, and what the roadmap's view of the history
  // reads that this run's writes leave as it is (store/history-view.ts).
  const chain = parent ? parentChain(ctx, parent) : undefined;
  chain?.catch(() => {}); // awaited for the draft; a failure surfaces there
  prepareView(ctx);
  const base = await findBase(ctx, git, options.since, parent, head, parentHead);
  const [[changes, commits, own], template] = await Promise.all([
    early && base === guess ? early : history(base),
    readTemplate('handoff.md'),
  ]);
  // Our own records are not the work, and neither is what a merge of another branch brought:
  // a committed change counts when one of the branch's own commits touched it.
  const ours = (f: FileChange) =>
    own === null || f.state !== 'committed' || own.has(f.path) || (f.from !== undefined && own.has(f.from));
  const files = clean(changes.filter((f) => !f.path.startsWith('.handoff/') && ours(f)));
  // A transcript adds what git cannot know; see transcript-source.ts.
  const { from } = options;
  const source = from === undefined ? undefined : await import('../transcripts/transcript-source.js');
  const transcript =
    source && from !== undefined
      ? // The session may reverse a decision the parent holds; it needs to know them to say which.
        await source.readFrom(ctx, from, options.force === true, parent ? standingDecisions(parent.body) : [])
      : undefined;
  if (from === 'auto' && !transcript)
    ctx.stderr('handoff: no session of a supported agent found for this repository; drafting from git alone');
  const extraction =
    source && transcript ? await source.draftParts(ctx, transcript, files, options.pinCandidates === true) : undefined;
  const x = transcript?.extraction;
  const goal = clean(
    (options.continuation &&
      (chainGoal(parent?.meta.goal) ?? (x ? firstRequest(x.recentUser, x.counts.userTurns) : undefined))) ??
      givenGoal,
  );
  const {
    body: draft,
    carried,
    superseded,
  } = drafted(template, {
    goal,
    files,
    commits,
    parent,
    ...(parent ? { parentFile: parent.file, chainDone: chainCompleted(parent.meta, await chain!) } : {}),
    base,
    ...(extraction ? { extraction } : {}),
    pinned: activePins(pins.items).map((p) => p.text),
  });
  const offered = options.model
    ? await options.model(
        { goal, files, commits, draft },
        transcript ? transcriptPart(transcript.extraction) : undefined,
      )
    : draft;
  if (offered === null) return null; // --dry-run: the request was printed, nothing is written
  const body = clean(checkText(await options.review(git, offered), 'the handoff body'));
  const notice = redactionNotice(
    kinds,
    'the goal, file names and body before writing',
    'handoff new --allow-secret keeps them (false positives)',
  );
  if (notice) ctx.stderr(notice);

  // Asked while the file is made, said before it is written.
  const inProgress = git.operationInProgress();
  inProgress.catch(() => {});
  const meta: HandoffMeta = {
    id: ctx.newId(),
    goal,
    ...(options.continuation ? { step: clean(options.continuation.step) } : {}),
    status: 'open',
    created: ctx.now().toISOString(),
    author,
    branch,
    base,
    head,
    parent: parent?.meta.id ?? null,
    files,
  };
  // In the form the tool writes, without the YAML library (plain-front-matter.ts) when the values allow.
  const text = plainText(meta, body) ?? (await import('../store/handoff.js')).serializeHandoff(meta, body);
  const operation = await inProgress;
  if (operation)
    ctx.stderr(
      `handoff: note: ${operation} is in progress; the file list shows the work tree as it is now, conflicts included`,
    );
  // The parent is read again and its superseded text made while the child is written and
  // synced (under the writer lock, as before); it is written only once the child is there,
  // so a run killed in between leaves what repair.ts finishes.
  const closing = parent
    ? rereadText(ctx, parent).then((text) => changeOpen(text, parent, 'superseded', [['superseded_by', meta.id]]))
    : undefined;
  closing?.catch(() => {}); // awaited once the child is written; a failure surfaces there
  const file = await createHandoff(ctx, meta.id, text);
  if (source && transcript && options.pinCandidates === true) await source.pinCandidates(ctx, transcript, author);
  if (parent && closing) {
    const { text: closed, parsed } = await closing;
    await rewriteItems(ctx, [{ file: parent.file, content: closed, parsed }]);
    const replaced =
      superseded > 0 ? `; ${superseded} earlier decision${superseded === 1 ? '' : 's'} marked superseded` : '';
    const what =
      options.carries === false
        ? 'the body replaced the draft; nothing was carried'
        : `the draft carried ${carried} of its open item${carried === 1 ? '' : 's'}${replaced}`;
    ctx.stderr(`handoff: ${parent.meta.id} is now superseded by this one (${what})`);
  }
  const fileCount = files.reduce((n, f) => n + (f.files ?? 1), 0);
  ctx.stderr(
    `handoff: ${thousands(fileCount)} file${fileCount === 1 ? '' : 's'} and ${commits.length} commit${commits.length === 1 ? '' : 's'} since ${base ? base.slice(0, 12) : 'the start'}`,
  );
  return { file, goal };
}
