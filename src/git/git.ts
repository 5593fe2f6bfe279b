// Git for the commands: every command runs at the repository root with argument arrays
// (never a shell string) and `-z` output where paths appear, through the same spawn as
// the hook paths (git-plumbing.ts), so the child inherits GIT_INDEX_FILE and GIT_DIR
// inside a git hook. The class builds on git-records.ts (how a command is run, the
// settings and the repository's state, the index and objects) and git-changes.ts (what
// changed since a base): here are the history and the work tree.
//
// Why not simple-git: its completion plugin waits a fixed delay after every command that
// printed nothing (an empty `git diff`, an empty `git log` range: the common case at
// session start), it is heavy to import for a hook, and it strips
// GIT_* variables that hooks depend on. A plain spawn does what we need in a few lines.
import {
  LOG_FORMAT,
  parseLog,
  parseNameStatus,
  parsePathList,
  sortedPaths,
  parseStatus,
  type Commit,
  type RawChange,
} from './git-output.js';
import { readText, type Stamp } from '../store/fs.js';
import path from 'node:path';
import { GitChanges, WORK } from './git-changes.js';
import { COMMIT_ID, fixedHead, indexData, indexStat } from './repo.js';
import { cachedTreesUnder, entriesUnder } from './index-file.js';

/** Bytes of a SHA-1 object id. */
const SHA1_BYTES = 20;
import type { IndexEntry } from './git-plumbing.js';

export type { Commit };

export class Git extends GitChanges {
  async branch(): Promise<string | null> {
    // Everything else at session start waits for the branch: read HEAD when it is the
    // plain file git writes (a branch, or a detached commit); anything else asks git
    // (a reftable repository's placeholder, a symbolic link, an unusual ref).
    const head = this.gitDir ? await readText(path.join(this.gitDir, 'HEAD')).catch(() => undefined) : undefined;
    const ref = head === undefined ? null : /^ref: refs\/heads\/([^\s]+)\n?$/.exec(head);
    if (ref && ref[1] !== '.invalid') return ref[1]!;
    if (head !== undefined && COMMIT_ID.test(head.replace(/\n$/, ''))) return null;
    return (await this.ask(['symbolic-ref', '--short', '-q', 'HEAD'])) || null;
  }

  /** HEAD's commit read without starting git, where answers about commits are fixed by their ids (repo.ts says when); else null. */
  fixedHead(): string | null {
    return this.gitDir ? fixedHead(this.gitDir, this.env) : null;
  }

  /** The stat data of the index git reads here, read without starting git (repo.ts); null where it cannot be told. */
  indexStat(): Stamp | null {
    return this.gitDir ? indexStat(this.gitDir, this.env) : null;
  }

  /** The bytes of the index git reads here (index-file.ts reads its entries), without starting git (repo.ts); null where it cannot be told. */
  indexData(): Buffer | null {
    // Read once a run while its stat data stays the same: a session start asks two questions of it.
    const stat = JSON.stringify(this.indexStat());
    if (this.index?.stat !== stat) this.index = { stat, data: this.gitDir ? indexData(this.gitDir, this.env) : null };
    return this.index.data;
  }

  private index: { stat: string; data: Buffer | null } | undefined;

  /**
   * Every index entry under `dir` (`git ls-files -s`), and the tree ids the index keeps for
   * `dir` and the folders in it (index-file.ts cachedTreesUnder). Both read from the index
   * file itself when it is one index-file.ts reads with SHA-1's ids (the only ones the
   * writers' record compares: store/tree.ts blobId): no git process, and no year of
   * entries through a pipe that the run's synchronous reads leave unread meanwhile. Else
   * listed by git, with the trees of the index git listed (its stat data the same before
   * and after): none when that cannot be told.
   */
  async indexEntriesAndTrees(dir: string): Promise<{ entries: IndexEntry[]; trees: ReadonlyMap<string, string> }> {
    const read = this.indexData();
    const entries = read && entriesUnder(read, `${dir}/`, SHA1_BYTES);
    if (read && entries) return { entries, trees: cachedTreesUnder(read, dir, SHA1_BYTES) ?? new Map() };
    const before = JSON.stringify(this.indexStat());
    const listed = await this.indexEntries(dir);
    const data = before === 'null' ? null : this.indexData();
    const hashBytes = (listed[0]?.id.length ?? 0) / 2;
    const same = data !== null && hashBytes > 0 && JSON.stringify(this.indexStat()) === before;
    return { entries: listed, trees: (same && cachedTreesUnder(data, dir, hashBytes)) || new Map() };
  }

  /** The configured default branch, else origin's HEAD, else main or master. */
  async defaultBranch(configured: string | undefined): Promise<string | null> {
    if (configured) return (await this.resolveCommit(configured)) ? configured : null;
    const remoteHead = await this.ask(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD']);
    if (remoteHead) return remoteHead;
    for (const name of ['main', 'master']) if (await this.resolveCommit(`refs/heads/${name}`)) return name;
    return null;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    return (await this.ask(['merge-base', '--end-of-options', a, b])) || null;
  }

  async rootCommit(): Promise<string | null> {
    const roots = await this.ask(['rev-list', '--max-parents=0', 'HEAD']);
    return roots.split('\n').filter(Boolean).pop() ?? null;
  }

  /**
   * The branch's own commits since `since` (all of them when since is null), newest first:
   * first-parent history without merge commits, so what came in by merging another branch
   * is not listed as this branch's work.
   */
  async commitsSince(since: string | null, limit: number): Promise<Commit[]> {
    if (since === null && !(await this.head())) return [];
    const range = since ? [`${since}..HEAD`] : ['HEAD'];
    const own = ['--first-parent', '--no-merges'];
    return parseLog(await this.run(['log', `--max-count=${limit}`, ...own, LOG_FORMAT, ...range, '--', ...WORK]));
  }

  /**
   * The paths the branch's own commits since `since` touched (first parent, no merges),
   * or null when no merge came in since then, so every committed change is the branch's.
   */
  async ownPathsSince(since: string): Promise<Set<string> | null> {
    const merges = await this.run(['rev-list', '--first-parent', '--merges', '--max-count=1', `${since}..HEAD`]);
    if (merges.trim() === '') return null;
    const log = ['log', '-z', '--first-parent', '--no-merges', '--no-renames', '--name-only', '--format='];
    return new Set(parsePathList(await this.run([...log, `${since}..HEAD`, '--'])));
  }

  /**
   * Every commit of work reachable from `upTo` and not from `since`, newest first, in one
   * `git log` (it answers what rev-parse --verify, log and rev-list --count used to);
   * null when git cannot answer (no such commit, or no HEAD yet). A commit whose change is
   * one `since` has and `upTo` does not (`since` was rebased or amended away: the copy a
   * rebase made) is no new work, so it is left out (--cherry-pick); where `since` is in
   * `upTo`'s history, as nearly always, the two sides of the range have no such commit.
   */
  async workSince(since: string, upTo = 'HEAD'): Promise<Commit[] | null> {
    const range = `${since}^{commit}...${upTo}`;
    const out = await this.answer([
      'log',
      LOG_FORMAT,
      '--cherry-pick',
      '--right-only',
      '--end-of-options',
      range,
      '--',
      ...WORK,
    ]);
    return out === null ? null : parseLog(out);
  }

  /**
   * Tracked paths outside .handoff/ that differ between `since` and the working tree:
   * handoff records are not work, and leaving them out spares git a look at every one of
   * a year's handoffs at each session start. Waited for in this thread (runBlocking).
   */
  async pathsChangedSince(since: string): Promise<string[]> {
    return sortedPaths(
      parsePathList(this.runBlocking(['diff', '-z', '--no-relative', '--name-only', since, '--', ...WORK])),
    );
  }

  /** Paths changed between two commits, renames detected (old path in `from`). */
  async changesBetween(from: string, to: string): Promise<RawChange[]> {
    return parseNameStatus(
      await this.run([
        'diff',
        '-z',
        '--no-relative',
        '--no-ext-diff',
        '--no-textconv',
        '-M',
        '--name-status',
        from,
        to,
        '--',
      ]),
    );
  }

  /**
   * Paths not committed now: the work tree differs from HEAD, or untracked and not
   * ignored; with `within` (repository-relative paths, taken literally; a `dir/` holds
   * what is under it), only those, so git looks at a few paths instead of the whole work
   * tree. One `git status` answers for nearly every path; the few it cannot settle ask
   * `git diff HEAD` (git-output.ts, parseStatus). No optional locks: status must not
   * write the index under a command the user runs meanwhile. The status is waited for in
   * this thread (runBlocking).
   */
  async uncommittedPaths(within?: readonly string[]): Promise<string[]> {
    return (await this.uncommitted(within, [])).paths;
  }

  /**
   * uncommittedPaths of a few paths, and whether git's answer rests on its ignore rules
   * too: some path is outside the index (untracked, or ignored: listed by `--ignored`, which
   * does not change the answer). Otherwise HEAD, the index and the files alone decide it.
   */
  uncommittedAmong(paths: readonly string[]): Promise<{ paths: string[]; outsideIndex: boolean }> {
    return this.uncommitted(paths, ['--ignored=matching']);
  }

  private async uncommitted(
    within: readonly string[] | undefined,
    options: string[],
  ): Promise<{ paths: string[]; outsideIndex: boolean }> {
    const literal = within ? ['--literal-pathspecs'] : [];
    const status = ['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--no-renames', '--untracked-files=all'];
    const { uncommitted, unsure, outside } = parseStatus(
      this.runBlocking([...literal, ...status, ...options, '--', ...(within ?? [])]),
    );
    if (unsure.length === 0) return { paths: uncommitted, outsideIndex: outside };
    const changed = await this.run([
      '--literal-pathspecs',
      'diff',
      '-z',
      '--no-relative',
      '--name-only',
      'HEAD',
      '--',
      ...unsure,
    ]);
    return { paths: [...uncommitted, ...parsePathList(changed)], outsideIndex: outside };
  }

  /** Every path in the index: what "exists in the repository" means when checking a model's claims. */
  async trackedPaths(): Promise<string[]> {
    return parsePathList(await this.run(['ls-files', '-z', '--full-name']));
  }

  /** Absolute paths of `--git-path` names (core.hooksPath and a linked worktree's common dir honoured), in order. */
  async gitPaths(names: readonly string[]): Promise<string[]> {
    const out = await this.run(['rev-parse', '--path-format=absolute', ...names.flatMap((n) => ['--git-path', n])]);
    return out.split('\n').slice(0, names.length);
  }

  /**
   * `git log --name-only` of the commits that added files under the pathspecs, in `format`,
   * in the history of `revs` (HEAD's when none); null when git cannot.
   */
  async additions(
    format: string,
    pathspecs: readonly string[],
    z = false,
    revs: readonly string[] = [],
  ): Promise<string | null> {
    const args = ['log', '--diff-filter=A', '--no-renames', `--format=${format}`, '--name-only'];
    const from = revs.length > 0 ? ['--end-of-options', ...revs] : [];
    return this.answer([...args, ...(z ? ['-z'] : []), ...from, '--', ...pathspecs]);
  }

  /**
   * `git log --name-only -z` of the commits in `range` (`<base>..HEAD`: a branch's own) that
   * changed files under the pathspecs, a merge only where its result is in none of its
   * parents (`--cc`: a test merge of the branch made by CI changed nothing itself), in
   * `format`; null when git cannot.
   */
  async changedIn(range: string, format: string, pathspecs: readonly string[]): Promise<string | null> {
    const args = ['log', '--cc', '--no-renames', `--format=${format}`, '--name-only', '-z'];
    return this.answer([...args, '--end-of-options', range, '--', ...pathspecs]);
  }

  /**
   * The author (`%an <%ae>`) of the newest commit that added `file`, a merge counted where
   * its result added it (in none of its parents: `--cc`, so a file a merge slipped in is
   * found, and an ordinary merge of a branch that added it is not its author); null when none
   * did or git cannot. Git stops at that commit: an open handoff is recent, where its first
   * addition was a walk of the whole history (a quarter of a second at 30,000 commits).
   * Asked by a resume after a new commit, once the history's git processes have started:
   * waited for in this thread (runBlocking), they run meanwhile.
   */
  async whoAdded(file: string): Promise<string | null> {
    const args = ['log', '--max-count=1', '--cc', '--diff-filter=A', '--no-renames', '--format=%x01%an <%ae>'];
    const log = this.answerBlocking([...args, '--name-only', '-z', '--', `:(top,literal)${file}`]);
    return log?.split('\0')[0]?.match(/^\x01(.*)$/s)?.[1] ?? null;
  }

  /** `git diff --name-status -z --no-renames` from `base` to the working tree, under the pathspecs. */
  async nameStatusSince(base: string, ...pathspecs: string[]): Promise<string> {
    return this.run(['diff', '--name-status', '-z', '--no-renames', base, '--', ...pathspecs]);
  }

  /** Untracked, not ignored paths under the pathspec. */
  async untrackedPaths(pathspec: string): Promise<string[]> {
    return parsePathList(
      await this.run(['ls-files', '-z', '--others', '--exclude-standard', '--full-name', '--', pathspec]),
    );
  }
}

export async function openGit(root: string, gitDir: string | null = null, env: NodeJS.ProcessEnv = {}): Promise<Git> {
  return new Git(root, gitDir, env);
}
