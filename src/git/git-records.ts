// The git client's base (git.ts builds on it): how a git command is run at the repository
// root, with one error text (gitFailed); the settings and the repository's state; and the
// index, trees and objects that the git hooks' records, merges and landings ask about.
import path from 'node:path';
import { parsePathList } from './git-output.js';
import {
  dirBlobs,
  existingObjects,
  filesOf,
  gitFailed,
  gitLines,
  gitRaw,
  gitRawSync,
  indexBlobs,
  indexEntries,
  type IndexEntry,
  readObjects,
  readTrees,
  type TreeEntry,
  treeBlobs,
  type GitResult,
} from './git-plumbing.js';
import { exists } from '../store/fs.js';
import type { ParseCache, TreeFile } from '../store/tree.js';

/** What a stopped merge, rebase, cherry-pick or revert leaves in the git directory, and its name. */
const OPERATIONS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
];

/** The name `handoff init` registers our merge driver under (`merge.<name>.driver` in .git/config). */
export const MERGE_DRIVER = 'handoff-roadmap';

export class GitRecords {
  /** `gitDir`: the work tree's git directory when known (the context finds it without git). */
  constructor(
    readonly root: string,
    protected readonly gitDir: string | null = null,
    protected readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /** `indexFile` names another index than the work tree's (GIT_INDEX_FILE). */
  protected exec(args: string[], indexFile?: string): Promise<GitResult> {
    return gitRaw(this.root, args, undefined, indexFile === undefined ? undefined : { GIT_INDEX_FILE: indexFile });
  }

  protected async run(args: string[]): Promise<string> {
    const result = await this.exec(args);
    if (result.code !== 0) throw gitFailed(args, result);
    return result.stdout.toString('utf8');
  }

  /**
   * run, waited for in this thread (gitRawSync). For the two short questions of the work
   * tree a session start asks first, before any other git of the run has started (the
   * history's, when any, start after a read of the cache): nothing would overlap them.
   */
  protected runBlocking(args: string[]): string {
    const result = gitRawSync(this.root, args);
    if (result.code !== 0) throw gitFailed(args, result);
    return result.stdout.toString('utf8');
  }

  /** answer, waited for in this thread (runBlocking says when). */
  protected answerBlocking(args: string[]): string | null {
    const result = gitRawSync(this.root, args);
    return result.code === 0 ? result.stdout.toString('utf8') : null;
  }

  /** git's output, or null when it fails: for questions where a failure means "no answer". */
  protected async answer(args: string[], indexFile?: string): Promise<string | null> {
    const result = await this.exec(args, indexFile);
    return result.code === 0 ? result.stdout.toString('utf8') : null;
  }

  /** Like answer, trimmed, and '' for no answer. */
  protected async ask(args: string[]): Promise<string> {
    return (await this.answer(args))?.trim() ?? '';
  }

  async author(): Promise<string> {
    // Of a key set in several places, the last listed wins, as `git config <key>` answers.
    const values = new Map<string, string>();
    for (const { entry } of await this.settings()) {
      const at = entry.indexOf('\n');
      if (at > 0 && entry.startsWith('user.')) values.set(entry.slice(0, at), entry.slice(at + 1).trim());
    }
    const name = values.get('user.name') ?? '';
    const email = values.get('user.email') ?? '';
    if (name && email) return `${name} <${email}>`;
    return name || email || 'unknown';
  }

  async editor(): Promise<string | null> {
    return (await this.ask(['var', 'GIT_EDITOR'])) || null;
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

  /** A commit's parents' ids (none for a root commit); null when git cannot say. Waited for in this thread, as whoAdded, which it spares. */
  parentsOf(commit: string): string[] | null {
    const out = this.answerBlocking(['log', '-1', '--format=%P', '--end-of-options', commit]);
    return out === null ? null : out.trim().split(' ').filter(Boolean);
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
    return (await this.settings())
      .filter(({ entry }) => entry.startsWith('handoff.'))
      .map(({ entry }) => `${entry}\0`)
      .join('');
  }

  /** Whether `handoff init` registered our merge driver in .git/config (asked with the settings: settings()). */
  async driverConfigured(): Promise<boolean> {
    const key = `merge.${MERGE_DRIVER}.driver`;
    return (await this.settings()).some(
      ({ scope, entry }) => scope === 'local' && (entry === key || entry.startsWith(`${key}\n`)),
    );
  }

  /**
   * The `handoff.*` settings, the author's name and email and our merge driver's command,
   * each `key\nvalue` with the scope it was found in: one process answers every question
   * asked while it runs (`new` asks them at once), and a question asked after it ended starts
   * another, so a long-lived client (the MCP server) sees changes.
   */
  private settings(): Promise<Array<{ scope: string; entry: string }>> {
    if (this.configured) return this.configured;
    const keys = `^(handoff\\.|user\\.(name|email)$|merge\\.${MERGE_DRIVER}\\.driver$)`;
    // With --show-scope, -z prints each as `<scope>\0<key>\n<value>\0`.
    const asked = this.answer(['config', '--show-scope', '-z', '--get-regexp', keys]).then((out) => {
      const fields = (out ?? '').split('\0');
      const entries: Array<{ scope: string; entry: string }> = [];
      for (let i = 0; i + 1 < fields.length; i += 2) entries.push({ scope: fields[i]!, entry: fields[i + 1]! });
      return entries;
    });
    this.configured = asked;
    const done = () => {
      this.configured = undefined;
    };
    asked.then(done, done);
    return asked;
  }

  private configured: Promise<Array<{ scope: string; entry: string }>> | undefined;

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

  /** The tree id of the index's `prefix` directory (another index with `indexFile`); undefined when git cannot (unmerged, absent). */
  async writeTree(prefix: string, indexFile?: string): Promise<string | undefined> {
    return (await this.answer(['write-tree', `--prefix=${prefix}`], indexFile))?.trim() || undefined;
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
        } else if (line && at && wanted.has(line) && !found.has(line)) found.set(line, at);
        return found.size === wanted.size;
      },
    );
    // git failed (no HEAD yet): no answer, as before.
    return stopped || code === 0 ? found : new Map();
  }

  // The object and index reads of git-plumbing.ts, at this repository's root.
  indexBlobs(prefixes: readonly string[], indexFile?: string): Promise<Map<string, string>> {
    return indexBlobs(this.root, prefixes, indexFile === undefined ? undefined : { GIT_INDEX_FILE: indexFile });
  }

  /** Every index entry under `prefix`, with its mode and stage. */
  indexEntries(prefix: string): Promise<IndexEntry[]> {
    return indexEntries(this.root, prefix);
  }

  treeBlobs(rev: string | null, prefix: string): Promise<Map<string, string>> {
    return treeBlobs(this.root, rev, prefix);
  }

  dirBlobs(commits: readonly string[], dir: string): Promise<Map<string, Map<string, string>>> {
    return dirBlobs(this.root, commits, dir);
  }

  readTrees(specs: readonly string[]): Promise<Map<string, TreeEntry[]>> {
    return readTrees(this.root, specs);
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
