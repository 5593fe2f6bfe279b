// What changed in the work since a base, for a draft: the base->work tree diff (renames,
// line counts) and what is staged, changed and untracked, outside .handoff/. A layer of the
// one git client (git.ts builds on it), on git-records.ts's way of running git.
import { combineChanges, parsePathList, parseRawNumstat, parseStatusSets, type RawChange } from './git-output.js';
import type { FileChange } from '../store/handoff.js';
import { GitRecords } from './git-records.js';

const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Commits that only save handoff records are not work: leave them out of commit lists. */
export const WORK = [':/', ':(top,exclude).handoff'];

export class GitChanges extends GitRecords {
  /** The commit HEAD points at, or null on an unborn branch. */
  async head(): Promise<string | null> {
    return this.resolveCommit('HEAD');
  }

  async resolveCommit(rev: string): Promise<string | null> {
    return (await this.ask(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`])) || null;
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
    const scope = this.untrackedScope();
    // Outside .handoff/ only: our records are not the work (the draft left them out after
    // the fact), and each of these asked git about every handoff of the year. One `git status`
    // answers what is staged, changed and untracked in one read of the index (a year of
    // handoffs is most of its entries), over the top-level entries there are (scope); a path
    // under one that is gone (a deletion) is asked about on its own below.
    const status = ['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--no-renames'];
    const [overall, sets] = await Promise.all([
      this.run([...diff, '--raw', '--numstat', ...overallArgs, '--', ...WORK]),
      this.run(
        scope.length === 0
          ? [...status, '--untracked-files=no', '--', ...WORK]
          : [...status, '--untracked-files=normal', '--', ...scope],
      ).then(parseStatusSets),
    ]);
    const changes = parseRawNumstat(overall);
    const gone = scope.length === 0 ? [] : goneTopLevel(changes.overall, scope);
    if (gone.length > 0) {
      const more = parseStatusSets(await this.run([...status, '--untracked-files=no', '--', ...gone]));
      for (const p of more.staged) sets.staged.add(p);
      for (const p of more.unstaged) sets.unstaged.add(p);
    }
    // With no folder folded into one entry (each ends in /), the list by folders is the list
    // file by file: a process fewer in the common case (no new folder), one more round otherwise.
    const folded = sets.untracked.some((p) => p.endsWith('/'));
    const untracked = folded ? parsePathList(await this.run([...others, '--', ...scope])) : sets.untracked;
    return combineChanges({
      ...changes,
      staged: sets.staged,
      unstaged: sets.unstaged,
      untracked,
      untrackedDirs: sets.untracked,
      collapseOver,
    });
  }

  /**
   * WORK for a status and a search of untracked files: the work tree's top-level entries but
   * .git and .handoff, each named, because git walks a folder a pathspec excludes (a year of
   * handoffs) and skips one no pathspec names; WORK itself when the root cannot be read or
   * holds more entries than a command line should carry. Empty: nothing to search.
   */
  private untrackedScope(): string[] {
    let names: string[];
    try {
      // Listed in this thread, one small folder: both processes start at once, in the caller's
      // turn, before the work it does while they run (handoff/write.ts) holds the thread.
      names = process.getBuiltinModule('node:fs').readdirSync(this.root); // taken, not imported: see store/fs.ts
    } catch {
      return WORK;
    }
    const top = names.filter((n) => n !== '.git' && n !== '.handoff');
    return top.length > 256 ? WORK : top.map((n) => `:(top,literal)${n}`);
  }
}

/**
 * The top-level entries (as `:(top,literal)` pathspecs) of the paths in `changes`, both sides
 * of a rename, that `scope` (untrackedScope: the entries there are) does not name: a status
 * over the scope did not see them (a deleted file or folder). None when the scope is WORK.
 */
function goneTopLevel(changes: readonly RawChange[], scope: readonly string[]): string[] {
  if (scope === WORK) return [];
  const there = new Set(scope);
  const gone = new Set<string>();
  for (const c of changes)
    for (const p of c.from === undefined ? [c.path] : [c.path, c.from]) {
      const slash = p.indexOf('/');
      const name = `:(top,literal)${slash < 0 ? p : p.slice(0, slash)}`;
      if (!there.has(name)) gone.add(name);
    }
  return [...gone];
}
