// `handoff git-hook pre-commit | refresh`: what the installed git hooks call, only after
// their shell has seen that .handoff/ is involved. Never blocks a commit on our own
// failure: every error is one warning and exit 0. The single exception is the user's
// own staged .handoff/ files being invalid (exit 3, which the hook turns into a refusal).
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { parseConfig } from '../store/config.js';
import { CONFIG_PATH, HANDOFF_DIR, itemKind, LINK_PREFIX, SYMLINK_REFUSED, type Problem } from '../store/tree.js';
import { heldBack, refreshWorkTree, renderTree, writeRoadmap } from '../roadmap/roadmap-file.js';
import { openCache } from '../store/cache.js';
import { loadOpen } from '../store/store.js';
import { recordIndex } from './validated.js';
import { present } from '../store/fs.js';
import { readyResume as readyPrompt } from '../resume/build.js';
import { within } from '../resume/time-budget.js';

async function preCommit(ctx: Context): Promise<Outcome> {
  const root = ctx.root;
  const roadmap = ctx.config.roadmap;
  const git = await ctx.git();
  // Three rounds of git at most: list and diff, one cat-file, one update-index.
  const [opened, index, stagedPaths] = await Promise.all([
    openCache(ctx.cacheFile),
    git.indexBlobs([HANDOFF_DIR, roadmap]),
    git.stagedPaths(`:/${HANDOFF_DIR}`),
  ]);
  const staged = new Set(stagedPaths);
  const roadmapBlob = index.get(roadmap);
  const configBlob = staged.has(CONFIG_PATH) ? index.get(CONFIG_PATH) : undefined;
  const items = new Map([...index].filter(([p]) => itemKind(p) !== undefined));
  // A link is never read, whichever file it is: refused with the words every reader uses.
  const links = [roadmapBlob, configBlob].map((b) => b?.startsWith(LINK_PREFIX) === true);
  const { files, extra } = await git.filesOf(
    items,
    opened.cache,
    [roadmapBlob, configBlob].filter((b, i): b is string => b !== undefined && !links[i]),
  );
  const { tree, content } = await renderTree(files, roadmap, opened);
  const problems: Problem[] = [...tree.problems];
  if (links[0]) problems.push({ file: roadmap, message: SYMLINK_REFUSED });
  if (links[1]) problems.push({ file: CONFIG_PATH, message: SYMLINK_REFUSED });
  else if (configBlob) {
    try {
      await parseConfig(extra.get(configBlob), CONFIG_PATH);
    } catch (error) {
      if (!(error instanceof HandoffError)) throw error;
      problems.push({ file: CONFIG_PATH, message: error.message.replace(`${CONFIG_PATH}: `, '') });
    }
  }
  const blocking = problems.filter((p) => staged.has(p.file));
  for (const p of problems.filter((q) => !staged.has(q.file)))
    ctx.stderr(`handoff: warning: ${p.file}: ${p.message} (already committed; 'handoff check' lists every problem)`);
  if (blocking.length > 0) {
    for (const p of blocking) ctx.stderr(`handoff: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    ctx.stderr(
      `handoff: commit stopped: fix ${blocking.length === 1 ? 'that file' : 'those files'} and 'git add' again (or unstage ${blocking.length === 1 ? 'it' : 'them'}); to commit anyway: HANDOFF_SKIP=1 git commit ... (or git commit --no-verify)`,
    );
    return 'attention'; // the hook's shell refuses the commit on this code (BLOCK_COMMIT)
  }
  await writeRoadmap(root, roadmap, content);
  if ((roadmapBlob && extra.get(roadmapBlob)) !== content) {
    // update-index hashes the file we just wrote: one git process instead of hash-object + update-index.
    await git.stage(roadmap);
    ctx.stderr(`handoff: regenerated ${roadmap} and staged it`);
    const indexFile = ctx.env.GIT_INDEX_FILE ?? '';
    if (path.basename(indexFile).startsWith('next-index')) {
      // `git commit -- <paths>` commits from this temporary index, and has already written
      // the index it will keep to index.lock, which it only renames afterwards. Stage the
      // roadmap there too, or `git status` would show the old roadmap staged after the commit.
      const kept = path.join(path.dirname(path.resolve(root, indexFile)), 'index.lock');
      if (!(await git.stageInto(kept, roadmap)))
        ctx.stderr(
          `handoff: this commit names its paths, so git's index still has the old ${roadmap}: run 'git add ${roadmap}' after it`,
        );
    }
  }
  // A commit usually follows an edit of the open handoff: the open index takes it in now,
  // while the parsers are loaded, so the next session start parses nothing.
  await loadOpen(ctx);
  // Clean, and the roadmap staged current: the hook's shell need not start node for this tree again.
  if (problems.length === 0) await recordIndex(ctx, roadmap, index, tree);
  await readyResume(ctx);
}

/** How long the hook may spend on the next session start's prompt: past it, that session start makes it. */
const READY_MS = 2000;

// The commit usually carries an edit of the branch's open handoff, so the next session
// start's prompt is one never seen: it would render it, then load the secret patterns and
// run them. The hook has node running and the open handoffs read: it makes that prompt now
// (resume/build.ts, readyResume), and what it remembers (resume/snapshot.ts, and the
// strings found clean, security/remembered.ts) leaves the session start after a commit
// that changed no work nothing new. Silent and best effort: it never blocks the commit nor
// says a word, and is skipped during a rebase, merge, cherry-pick or revert, which commit
// step after step.
async function readyResume(ctx: Context): Promise<void> {
  try {
    if ((await (await ctx.git()).operationInProgress()) !== null) return;
    const start = ctx.now().getTime();
    await readyPrompt(
      ctx,
      within(start + READY_MS, READY_MS, () => ctx.now().getTime()),
    );
  } catch {
    // a file that does not parse, the budget spent: the session start says so itself
  }
}

async function refresh(ctx: Context): Promise<Outcome> {
  // A rebase, merge, cherry-pick or revert is under way: its later steps may need the file untouched.
  if ((await (await ctx.git()).operationInProgress()) !== null) return;
  const roadmap = ctx.config.roadmap;
  // Only a roadmap the work tree has is brought up to date. One that is not there was
  // removed by git with the commit that held it (a checkout of a branch that never
  // committed it): written again, it would be an untracked file that blocks the checkout
  // back. The pre-commit hook adds it with the next commit that touches .handoff/.
  if (!present(path.join(ctx.root, roadmap))) return;
  said(ctx, roadmap, await refreshWorkTree(ctx, roadmap));
}

/** What a refresh did, in one line: the roadmap refreshed, or left as it is and why. */
function said(ctx: Context, roadmap: string, refreshed: Awaited<ReturnType<typeof refreshWorkTree>>): void {
  if (refreshed?.written) ctx.stderr(`handoff: refreshed ${roadmap} in the working tree`);
  else if (refreshed && refreshed.tree.problems.length > 0) ctx.stderr(heldBack(roadmap, refreshed.tree.problems));
}

/**
 * After a merge or pull: handoffs whose branch landed on the default branch close, then
 * the roadmap is refreshed. Git still has MERGE_HEAD while post-merge runs, though the
 * merge is done (the hook only runs after one succeeded): that one is no reason to wait.
 */
async function postMerge(ctx: Context): Promise<Outcome> {
  const operation = await (await ctx.git()).operationInProgress();
  if (operation !== null && operation !== 'a merge') return;
  const { closeLanded } = await import('./close-landed.js');
  await closeLanded(ctx);
  const roadmap = ctx.config.roadmap;
  said(ctx, roadmap, await refreshWorkTree(ctx, roadmap));
}

export async function run(ctx: Context, args: ArgsOf<'git-hook'>): Promise<Outcome> {
  const which = args.positionals[0];
  if (which !== 'pre-commit' && which !== 'refresh' && which !== 'post-merge')
    throw new UsageError(
      `'handoff git-hook' takes pre-commit, post-merge or refresh; got '${which ?? ''}' (git hooks run it; see handoff hooks install)`,
    );
  try {
    return which === 'pre-commit'
      ? await preCommit(ctx)
      : which === 'post-merge'
        ? await postMerge(ctx)
        : await refresh(ctx);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    ctx.stderr(
      `handoff: warning: the ${which === 'refresh' ? 'roadmap refresh' : which} hook failed (${message}); carrying on without it (HANDOFF_DEBUG=1 shows more)`,
    );
    if (ctx.env.HANDOFF_DEBUG === '1' && error instanceof Error && error.stack) ctx.stderr(error.stack);
    return;
  }
}
