// Git for the commands: every command runs at the repository root with argument arrays
// (never a shell string) and `-z` output where paths appear, through the same spawn as
// the hook paths (git-plumbing.ts), so the child inherits GIT_INDEX_FILE and GIT_DIR
// inside a git hook.
//
// Why not simple-git: its completion plugin waits a fixed delay after every command that
// printed nothing (an empty `git diff`, an empty `git log` range: the common case at
// session start), it is heavy to import for a hook, and it strips
// GIT_* variables that hooks depend on. A plain spawn does what we need in a few lines.
import { HandoffError } from '../cli/errors.js';
import {
  combineChanges,
  LOG_FORMAT,
  parseLog,
  parseNameStatus,
  parseNumstat,
  parsePathList,
  parseStatus,
  type Commit,
  type RawChange,
} from './git-output.js';
import type { FileChange } from '../store/handoff.js';
import { readText } from '../store/fs.js';
import path from 'node:path';
import { gitRaw } from './git-plumbing.js';
import { COMMIT_ID, fixedHead } from './repo.js';

const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Commits that only save handoff records are not work: leave them out of commit lists. */
const WORK = [':/', ':(top,exclude).handoff'];

export type { Commit };

export class Git {
  /** `gitDir`: the work tree's git directory when known (the context finds it without git). */
  constructor(
    readonly root: string,
    private readonly gitDir: string | null = null,
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  private async run(args: string[]): Promise<string> {
    const result = await gitRaw(this.root, args);
    if (result.code !== 0)
      throw new HandoffError(`git ${args[0]} failed: ${result.stderr.trim().split('\n')[0] || `exit ${result.code}`}`);
    return result.stdout.toString('utf8');
  }

  /** Like run, but a failure means "no answer". */
  private async ask(args: string[]): Promise<string> {
    const result = await gitRaw(this.root, args);
    return result.code === 0 ? result.stdout.toString('utf8').trim() : '';
  }

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

  /** The commit HEAD points at, or null on an unborn branch. */
  async head(): Promise<string | null> {
    return this.resolveCommit('HEAD');
  }

  async resolveCommit(rev: string): Promise<string | null> {
    return (await this.ask(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`])) || null;
  }

  async author(): Promise<string> {
    const [name, email] = await Promise.all([this.ask(['config', 'user.name']), this.ask(['config', 'user.email'])]);
    if (name && email) return `${name} <${email}>`;
    return name || email || 'unknown';
  }

  /** The configured default branch, else origin's HEAD, else main or master. */
  async defaultBranch(configured: string | undefined): Promise<string | null> {
    if (configured) return (await this.resolveCommit(configured)) ? configured : null;
    const remoteHead = await this.ask(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD']);
    if (remoteHead) return remoteHead;
    for (const name of ['main', 'master']) if (await this.resolveCommit(`refs/heads/${name}`)) return name;
    return null;
  }

  async editor(): Promise<string | null> {
    return (await this.ask(['var', 'GIT_EDITOR'])) || null;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    return (await this.ask(['merge-base', '--end-of-options', a, b])) || null;
  }

  async rootCommit(): Promise<string | null> {
    const roots = await this.ask(['rev-list', '--max-parents=0', 'HEAD']);
    return roots.split('\n').filter(Boolean).pop() ?? null;
  }

  /** Commits reachable from HEAD and not from `since` (all of them when since is null), newest first. */
  async commitsSince(since: string | null, limit: number): Promise<Commit[]> {
    if (since === null && !(await this.head())) return [];
    const range = since ? [`${since}..HEAD`] : ['HEAD'];
    return parseLog(await this.run(['log', `--max-count=${limit}`, LOG_FORMAT, ...range, '--', ...WORK]));
  }

  /**
   * Every commit of work reachable from `upTo` and not from `since`, newest first, in one
   * `git log` (it answers what rev-parse --verify, log and rev-list --count used to);
   * null when git cannot answer (no such commit, or no HEAD yet).
   */
  async workSince(since: string, upTo = 'HEAD'): Promise<Commit[] | null> {
    const r = await gitRaw(this.root, [
      'log',
      LOG_FORMAT,
      '--end-of-options',
      `${since}^{commit}..${upTo}`,
      '--',
      ...WORK,
    ]);
    return r.code === 0 ? parseLog(r.stdout.toString('utf8')) : null;
  }

  private async emptyTree(): Promise<string> {
    const format = (await this.ask(['rev-parse', '--show-object-format'])) || 'sha1';
    return EMPTY_TREE[format] ?? EMPTY_TREE.sha1!;
  }

  /**
   * Everything that changed between `base` and the working tree: committed, staged,
   * unstaged and untracked-but-not-ignored, renames detected, binaries marked.
   * A null base means "since the empty tree" (an unborn branch, or the root).
   */
  async changesSince(base: string | null, collapseOver = Infinity): Promise<FileChange[]> {
    const from = base ?? (await this.emptyTree());
    const diff = ['diff', '-z', '--no-relative', '--no-ext-diff', '--no-textconv', '-M'];
    const hasHead = (await this.head()) !== null;
    // With no HEAD there is no worktree diff against a commit: compare the index instead.
    const overallArgs = hasHead ? [from] : ['--cached', from];
    const others = ['ls-files', '-z', '--others', '--exclude-standard', '--full-name'];
    const [nameStatus, numstat, staged, unstaged, untracked, untrackedDirs] = await Promise.all([
      this.run([...diff, '--name-status', ...overallArgs, '--']),
      this.run([...diff, '--numstat', ...overallArgs, '--']),
      this.run(['diff', '-z', '--no-relative', '--name-only', '--cached', ...(hasHead ? [] : [from]), '--']),
      this.run(['diff', '-z', '--no-relative', '--name-only', '--']),
      this.run([...others, '--', ':/']),
      this.run([...others, '--directory', '--no-empty-directory', '--', ':/']),
    ]);
    return combineChanges({
      overall: parseNameStatus(nameStatus),
      stats: parseNumstat(numstat),
      staged: new Set(parsePathList(staged)),
      unstaged: new Set(parsePathList(unstaged)),
      untracked: parsePathList(untracked),
      untrackedDirs: parsePathList(untrackedDirs),
      collapseOver,
    });
  }

  /** Where git keeps `name` for this work tree (linked worktrees have their own). */
  async gitPath(name: string): Promise<string> {
    return this.ask(['rev-parse', '--git-path', name]);
  }

  /** Tracked paths that differ between `since` and the working tree. */
  async pathsChangedSince(since: string): Promise<string[]> {
    return parsePathList(await this.run(['diff', '-z', '--no-relative', '--name-only', since, '--'])).sort();
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
   * write the index under a command the user runs meanwhile.
   */
  async uncommittedPaths(within?: readonly string[]): Promise<string[]> {
    const literal = within ? ['--literal-pathspecs'] : [];
    const status = ['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--no-renames', '--untracked-files=all'];
    const { uncommitted, unsure } = parseStatus(await this.run([...literal, ...status, '--', ...(within ?? [])]));
    if (unsure.length === 0) return uncommitted;
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
    return [...uncommitted, ...parsePathList(changed)];
  }

  /** Every path in the index: what "exists in the repository" means when checking a model's claims. */
  async trackedPaths(): Promise<string[]> {
    return parsePathList(await this.run(['ls-files', '-z', '--full-name']));
  }
}

/** A merge, rebase, cherry-pick or revert stopped half-way: its name, or null. */
export async function operationInProgress(git: Git): Promise<string | null> {
  const { access } = await import('node:fs/promises');
  const path = await import('node:path');
  for (const [name, what] of OPERATIONS) {
    const where = (await git.gitPath(name)) || null;
    if (
      where &&
      (await access(path.resolve(git.root, where)).then(
        () => true,
        () => false,
      ))
    )
      return what;
  }
  return null;
}

const OPERATIONS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
];

export async function openGit(root: string, gitDir: string | null = null, env: NodeJS.ProcessEnv = {}): Promise<Git> {
  return new Git(root, gitDir, env);
}
