// Git for the commands: every command runs at the repository root with argument arrays
// (never a shell string) and `-z` output where paths appear, through the same spawn as
// the hook paths (git-plumbing.ts), so the child inherits GIT_INDEX_FILE and GIT_DIR
// inside a git hook.
//
// Why not simple-git: its completion plugin waits a fixed delay after every command that
// printed nothing (an empty `git diff`, an empty `git log` range: the common case at
// session start), it is heavy to import for a hook, and it strips
// GIT_* variables that hooks depend on. A plain spawn does what we need in a few lines.
import {
  combineChanges,
  LOG_FORMAT,
  parseLog,
  parseNameStatus,
  parsePathList,
  parseRawBlobs,
  parseRawNumstat,
  parseStatus,
  type Commit,
  type RawChange,
} from './git-output.js';
import type { FileChange } from '../store/handoff.js';
import { exists, readText } from '../store/fs.js';
import path from 'node:path';
import {
  dirBlobs,
  existingObjects,
  filesOf,
  gitFailed,
  gitLines,
  gitRaw,
  gitRawSync,
  indexBlobs,
  readObjects,
  treeBlobs,
  type GitResult,
} from './git-plumbing.js';
import type { ParseCache, TreeFile } from '../store/tree.js';
import { COMMIT_ID, fixedHead, indexStat, type IndexStat } from './repo.js';

const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Commits that only save handoff records are not work: leave them out of commit lists. */
const WORK = [':/', ':(top,exclude).handoff'];

/** What a stopped merge, rebase, cherry-pick or revert leaves in the git directory, and its name. */
const OPERATIONS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
];

export type { Commit };

export class Git {
  /** `gitDir`: the work tree's git directory when known (the context finds it without git). */
  constructor(
    readonly root: string,
    private readonly gitDir: string | null = null,
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /** `indexFile` names another index than the work tree's (GIT_INDEX_FILE). */
  private exec(args: string[], indexFile?: string): Promise<GitResult> {
    return gitRaw(this.root, args, undefined, indexFile === undefined ? undefined : { GIT_INDEX_FILE: indexFile });
  }

  private async run(args: string[]): Promise<string> {
    const result = await this.exec(args);
    if (result.code !== 0) throw gitFailed(args, result);
    return result.stdout.toString('utf8');
  }

  /**
   * run, waited for in this thread (gitRawSync). For the two short questions of the work
   * tree a session start asks first, before any other git of the run has started (the
   * history's, when any, start after a read of the cache): nothing would overlap them.
   */
  private runBlocking(args: string[]): string {
    const result = gitRawSync(this.root, args);
    if (result.code !== 0) throw gitFailed(args, result);
    return result.stdout.toString('utf8');
  }

  /** answer, waited for in this thread (runBlocking says when). */
  private answerBlocking(args: string[]): string | null {
    const result = gitRawSync(this.root, args);
    return result.code === 0 ? result.stdout.toString('utf8') : null;
  }

  /** git's output, or null when it fails: for questions where a failure means "no answer". */
  private async answer(args: string[], indexFile?: string): Promise<string | null> {
    const result = await this.exec(args, indexFile);
    return result.code === 0 ? result.stdout.toString('utf8') : null;
  }

  /** Like answer, trimmed, and '' for no answer. */
  private async ask(args: string[]): Promise<string> {
    return (await this.answer(args))?.trim() ?? '';
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

  /** The stat data of the index git reads here, read without starting git (repo.ts); null where it cannot be told. */
  indexStat(): IndexStat | null {
    return this.gitDir ? indexStat(this.gitDir, this.env) : null;
  }

  /** The commit HEAD points at, or null on an unborn branch. */
  async head(): Promise<string | null> {
    return this.resolveCommit('HEAD');
  }

  async resolveCommit(rev: string): Promise<string | null> {
    return (await this.ask(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`])) || null;
  }

  async author(): Promise<string> {
    // One process for both keys; of a key set in several places, the last listed wins, as `git config <key>` answers.
    const out = (await this.answer(['config', '-z', '--get-regexp', '^user\\.(name|email)$'])) ?? '';
    const values = new Map<string, string>();
    for (const entry of out.split('\0')) {
      const at = entry.indexOf('\n');
      if (at > 0) values.set(entry.slice(0, at), entry.slice(at + 1).trim());
    }
    const name = values.get('user.name') ?? '';
    const email = values.get('user.email') ?? '';
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
   * null when git cannot answer (no such commit, or no HEAD yet).
   */
  async workSince(since: string, upTo = 'HEAD'): Promise<Commit[] | null> {
    const out = await this.answer(['log', LOG_FORMAT, '--end-of-options', `${since}^{commit}..${upTo}`, '--', ...WORK]);
    return out === null ? null : parseLog(out);
  }

  private async emptyTree(): Promise<string> {
    const format = (await this.ask(['rev-parse', '--show-object-format'])) || 'sha1';
    return EMPTY_TREE[format] ?? EMPTY_TREE.sha1!;
  }

  /**
   * Everything outside .handoff/ that changed between `base` and the working tree: committed, staged,
   * unstaged and untracked-but-not-ignored, renames detected, binaries marked.
   * A null base means "since the empty tree" (an unborn branch, or the root). `head`:
   * HEAD's commit (null: none yet) when the caller asked already.
   */
  async changesSince(base: string | null, collapseOver = Infinity, head?: string | null): Promise<FileChange[]> {
    const from = base ?? (await this.emptyTree());
    const diff = ['diff', '-z', '--no-relative', '--no-ext-diff', '--no-textconv', '-M'];
    const hasHead = (head === undefined ? await this.head() : head) !== null;
    // With no HEAD there is no worktree diff against a commit: compare the index instead.
    const overallArgs = hasHead ? [from] : ['--cached', from];
    const others = ['ls-files', '-z', '--others', '--exclude-standard', '--full-name'];
    const scope = await this.untrackedScope();
    // Outside .handoff/ only: our records are not the work (the draft left them out after
    // the fact), and each of these asked git about every handoff of the year.
    const [overall, staged, unstaged, untracked, untrackedDirs] = await Promise.all([
      this.run([...diff, '--raw', '--numstat', ...overallArgs, '--', ...WORK]),
      this.run(['diff', '-z', '--no-relative', '--name-only', '--cached', ...(hasHead ? [] : [from]), '--', ...WORK]),
      this.run(['diff', '-z', '--no-relative', '--name-only', '--', ...WORK]),
      scope.length === 0 ? '' : this.run([...others, '--', ...scope]),
      scope.length === 0 ? '' : this.run([...others, '--directory', '--no-empty-directory', '--', ...scope]),
    ]);
    return combineChanges({
      ...parseRawNumstat(overall),
      staged: new Set(parsePathList(staged)),
      unstaged: new Set(parsePathList(unstaged)),
      untracked: parsePathList(untracked),
      untrackedDirs: parsePathList(untrackedDirs),
      collapseOver,
    });
  }

  /**
   * WORK for a search of untracked files: the work tree's top-level entries but .git and
   * .handoff, each named, because git walks a folder a pathspec excludes (a year of
   * handoffs) and skips one no pathspec names; WORK itself when the root cannot be read or
   * holds more entries than a command line should carry. Empty: nothing to search.
   */
  private async untrackedScope(): Promise<string[]> {
    let names: string[];
    try {
      names = await process.getBuiltinModule('node:fs').promises.readdir(this.root); // taken, not imported: see store/fs.ts
    } catch {
      return WORK;
    }
    const top = names.filter((n) => n !== '.git' && n !== '.handoff');
    return top.length > 256 ? WORK : top.map((n) => `:(top,literal)${n}`);
  }

  /**
   * Tracked paths outside .handoff/ that differ between `since` and the working tree:
   * handoff records are not work, and leaving them out spares git a look at every one of
   * a year's handoffs at each session start. Waited for in this thread (runBlocking).
   */
  async pathsChangedSince(since: string): Promise<string[]> {
    return parsePathList(this.runBlocking(['diff', '-z', '--no-relative', '--name-only', since, '--', ...WORK])).sort();
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

  /** A merge, rebase, cherry-pick or revert stopped half-way: its name, or null (also when git cannot tell). */
  async operationInProgress(): Promise<string | null> {
    // Each of these lives in the work tree's own git directory, where `--git-path` puts it
    // (no variable moves them): known already, no git started.
    const args = ['rev-parse', '--path-format=absolute', ...OPERATIONS.flatMap(([name]) => ['--git-path', name])];
    const paths = this.gitDir
      ? OPERATIONS.map(([name]) => path.join(this.gitDir!, name))
      : ((await this.answer(args))?.split('\n') ?? []);
    const found = await Promise.all(OPERATIONS.map((_, i) => (paths[i] ? exists(paths[i]) : false)));
    const at = found.indexOf(true);
    return at < 0 ? null : OPERATIONS[at]![1];
  }

  async isShallow(): Promise<boolean> {
    return (await this.ask(['rev-parse', '--is-shallow-repository'])) === 'true';
  }

  /** A git config value, trimmed (`local`: .git/config only); null when it is not set. */
  async config(key: string, local = false): Promise<string | null> {
    return (await this.answer(['config', ...(local ? ['--local'] : []), '--get', key]))?.trim() ?? null;
  }

  /** The current user's `user.email`, trimmed, or null; waited for in this thread (whoAdded says why). */
  async userEmail(): Promise<string | null> {
    return this.answerBlocking(['config', '--get', 'user.email'])?.trim() ?? null;
  }

  async setLocalConfig(key: string, value: string): Promise<void> {
    await this.run(['config', '--local', key, value]);
  }

  /** Removes a key from .git/config; false when it was not set. */
  async unsetLocalConfig(key: string): Promise<boolean> {
    return (await this.answer(['config', '--local', '--unset-all', key])) !== null;
  }

  /** The user's `handoff.*` settings in every scope, as `git config -z --get-regexp` prints them; '' when none. */
  async handoffSettings(): Promise<string> {
    return (await this.answer(['config', '-z', '--get-regexp', '^handoff\\.'])) ?? '';
  }

  /** `git merge-file` into `ours`; false when it left conflicts or failed. */
  async mergeFile(ours: string, base: string, theirs: string): Promise<boolean> {
    return (await this.exec(['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', ours, base, theirs])).code === 0;
  }

  /** Paths staged (not deleted) under the pathspec. */
  async stagedPaths(pathspec: string): Promise<string[]> {
    const args = ['diff', '--cached', '--name-only', '-z', '--no-renames', '--diff-filter=d', '--', pathspec];
    return parsePathList(await this.run(args));
  }

  /** `git update-index --add` of one work-tree file: hashes and stages it in one process. */
  async stage(file: string): Promise<void> {
    await this.run(['update-index', '--add', '--', file]);
  }

  /** stage() into another index file; false when git refused. */
  async stageInto(indexFile: string, file: string): Promise<boolean> {
    return (await this.answer(['update-index', '--add', '--', file], indexFile)) !== null;
  }

  /** `git add -A` of a directory into another index file, but what the pathspecs `except` name; false when git refused. */
  async addAllInto(indexFile: string, dir: string, except: readonly string[] = []): Promise<boolean> {
    return (await this.answer(['add', '-A', '--', dir, ...except], indexFile)) !== null;
  }

  /**
   * Paths that differ between two trees (relative to them), without renames, each with its
   * blob id in `to` as indexBlobs gives it (undefined when deleted or a submodule): one
   * process answers what a diff and a look into the index staged as `to` did; null when
   * git cannot (a tree gone).
   */
  async treeChanges(from: string, to: string): Promise<Map<string, string | undefined> | null> {
    const out = await this.answer(['diff-tree', '-r', '-z', '--no-renames', from, to]);
    return out === null ? null : parseRawBlobs(out);
  }

  /** The tree id of the index's `prefix` directory (another index with `indexFile`); undefined when git cannot (unmerged, absent). */
  async writeTree(prefix: string, indexFile?: string): Promise<string | undefined> {
    return (await this.answer(['write-tree', `--prefix=${prefix}`], indexFile))?.trim() || undefined;
  }

  /** `git log --name-only` of the commits that added files under the pathspecs, in `format`; null when git cannot. */
  async additions(format: string, pathspecs: readonly string[], z = false): Promise<string | null> {
    const args = ['log', '--diff-filter=A', '--no-renames', `--format=${format}`, '--name-only'];
    return this.answer([...args, ...(z ? ['-z'] : []), '--', ...pathspecs]);
  }

  /**
   * The authors (`%an <%ae>`) of the commits that added `file`, newest first; null when git
   * cannot. Asked by a resume after a new commit, once the history's git processes have
   * started: waited for in this thread (runBlocking), they run meanwhile.
   */
  async whoAdded(file: string): Promise<string[] | null> {
    const args = ['log', '--diff-filter=A', '--no-renames', '--format=%x01%an <%ae>', '--name-only', '-z'];
    const log = this.answerBlocking([...args, '--', `:(top,literal)${file}`]);
    if (log === null) return null;
    return log.split(/[\0\n]/).flatMap((token) => (token.startsWith('\x01') ? [token.slice(1)] : []));
  }

  /** Local and remote-tracking branches with their commits (symbolic refs such as origin/HEAD left out). */
  async branches(): Promise<Array<{ name: string; commit: string }>> {
    const out = await this.answer([
      'for-each-ref',
      '--format=%(objectname) %(symref) %(refname:short)',
      'refs/heads',
      'refs/remotes',
    ]);
    const found: Array<{ name: string; commit: string }> = [];
    for (const line of (out ?? '').split('\n')) {
      const m = /^([0-9a-f]+) (\S*) (.+)$/.exec(line);
      if (m && m[2] === '') found.push({ name: m[3]!, commit: m[1]! });
    }
    return found;
  }

  /**
   * For each path, the commit on HEAD's first-parent line that added it (for work that came
   * from another branch, the merge that brought it) and that commit's committer time;
   * paths with no such commit are left out.
   */
  async landings(paths: readonly string[]): Promise<Map<string, { commit: string; time: string }>> {
    const found = new Map<string, { commit: string; time: string }>();
    if (paths.length === 0) return found;
    const wanted = new Set(paths);
    let at: { commit: string; time: string } | undefined;
    // Newest first: a path's first line is its latest addition, and once every path has one
    // the rest of the history (a year of commits) is not walked.
    const { code, stopped } = await gitLines(
      this.root,
      [
        'log',
        '--first-parent',
        '--diff-merges=first-parent',
        '--diff-filter=A',
        '--no-renames',
        '--format=%x01%H %cI',
        '--name-only',
        'HEAD',
        '--',
        ...paths.map((p) => `:(top,literal)${p}`),
      ],
      (line) => {
        if (line.startsWith('\x01')) {
          const [commit = '', time = ''] = line.slice(1).split(' ');
          at = { commit, time: new Date(time).toISOString() };
        } else if (line && at && !found.has(line)) found.set(line, at);
        return [...wanted].every((p) => found.has(p));
      },
    );
    // git failed (no HEAD yet): no answer, as before.
    return stopped || code === 0 ? found : new Map();
  }

  /** `git diff --name-status -z --no-renames` from `base` to the working tree, under the pathspec. */
  async nameStatusSince(base: string, pathspec: string): Promise<string> {
    return this.run(['diff', '--name-status', '-z', '--no-renames', base, '--', pathspec]);
  }

  /** Untracked, not ignored paths under the pathspec. */
  async untrackedPaths(pathspec: string): Promise<string[]> {
    return parsePathList(
      await this.run(['ls-files', '-z', '--others', '--exclude-standard', '--full-name', '--', pathspec]),
    );
  }

  // The object and index reads of git-plumbing.ts, at this repository's root.
  indexBlobs(prefixes: readonly string[], indexFile?: string): Promise<Map<string, string>> {
    return indexBlobs(this.root, prefixes, indexFile === undefined ? undefined : { GIT_INDEX_FILE: indexFile });
  }

  treeBlobs(rev: string | null, prefix: string): Promise<Map<string, string>> {
    return treeBlobs(this.root, rev, prefix);
  }

  dirBlobs(commits: readonly string[], dir: string): Promise<Map<string, Map<string, string>>> {
    return dirBlobs(this.root, commits, dir);
  }

  readObjects(specs: readonly string[]): Promise<Map<string, string>> {
    return readObjects(this.root, specs);
  }

  existingObjects(specs: readonly string[]): Promise<Set<string>> {
    return existingObjects(this.root, specs);
  }

  filesOf(
    blobs: ReadonlyMap<string, string>,
    cache?: ParseCache,
    extra: readonly string[] = [],
  ): Promise<{ files: TreeFile[]; extra: Map<string, string> }> {
    return filesOf(this.root, blobs, cache, extra);
  }
}

export async function openGit(root: string, gitDir: string | null = null, env: NodeJS.ProcessEnv = {}): Promise<Git> {
  return new Git(root, gitDir, env);
}
