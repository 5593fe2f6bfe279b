// "Since the handoff": what git says has happened to the work after a handoff was
// written, decided from facts the command gathers. A file the handoff listed as
// uncommitted can since have been committed, renamed, put back, or left as it was; each
// is said apart, so a fresh agent never reads "still uncommitted" about a committed file.
import type { FileChange } from '../store/handoff.js';
import type { RawChange } from '../git/git-output.js';
import { code, thousands } from '../store/markdown.js';

export interface SinceFacts {
  head: string | null;
  headFound: boolean;
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  commitCount: number;
  /** Tracked files that differ from the handoff's commit and were not uncommitted then (the handoff's own first). */
  changedFiles: string[];
  /** How many they are, where changedFiles holds the first LISTED_PATHS alone (bounded). */
  changedCount?: number;
  /** Files the handoff listed as uncommitted that are still not committed. */
  stillUncommitted: string[];
  /** Files the handoff listed as uncommitted that have been committed since. */
  committedSince?: string[];
  /** Files the handoff listed that a commit since has renamed. */
  renamed?: Array<{ from: string; to: string }>;
  /** Files the handoff listed as uncommitted that match their committed content again (changes put back). */
  putBack?: string[];
  missingFiles: string[];
}

export interface GitSince {
  head: string;
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  commitCount: number;
  /** Commit-to-commit changes from the handoff's head to HEAD, renames detected. */
  committed: readonly RawChange[];
  /** Tracked paths differing from the handoff's head in the working tree. */
  differing: readonly string[];
  /** Paths not committed now (staged, unstaged, untracked). */
  uncommittedNow: readonly string[];
  /** Listed paths absent from the working tree. */
  missing: readonly string[];
}

/** Handoff records are not work: what happened to them is never said. */
export const ours = (p: string) => p.startsWith('.handoff/');

export function sinceFacts(files: readonly FileChange[], git: GitSince): SinceFacts {
  const wasUncommitted = new Set(files.filter((f) => f.state !== 'committed').map((f) => f.path));
  const listed = new Set(files.map((f) => f.path));
  const now = new Set(git.uncommittedNow);
  const committed = git.committed.filter((c) => !ours(c.path));
  const committedPaths = new Set(committed.flatMap((c) => [c.path, ...(c.from ? [c.from] : [])]));
  const renamed = committed
    .filter((c) => c.change === 'renamed' && c.from !== undefined && listed.has(c.from) && !now.has(c.from))
    .map((c) => ({ from: c.from!, to: c.path }));
  const renamedFrom = new Set(renamed.map((r) => r.from));
  const still: string[] = [];
  const committedSince: string[] = [];
  const putBack: string[] = [];
  // A directory entry (`node_modules/`, listed as one) stands for every path under it.
  const holds = (set: ReadonlySet<string>, p: string) =>
    set.has(p) || (p.endsWith('/') && [...set].some((q) => q.startsWith(p)));
  for (const p of [...wasUncommitted].sort()) {
    if (ours(p) || renamedFrom.has(p)) continue;
    if (holds(now, p)) still.push(p);
    else if (holds(committedPaths, p)) committedSince.push(p);
    else if (!git.missing.includes(p)) putBack.push(p);
  }
  return {
    head: git.head,
    headFound: true,
    commits: git.commits,
    commitCount: git.commitCount,
    changedFiles: changedOnly(git.differing, wasUncommitted, renamedFrom, listed),
    stillUncommitted: still,
    committedSince,
    renamed,
    putBack,
    missingFiles: git.missing.filter((p) => !renamedFrom.has(p)),
  };
}

/**
 * The paths that differ, but for handoff records and the paths said apart; the ones the
 * handoff listed first (the prompt names only the first few of a long list). An indexed
 * loop, no callback per path: after a large commit there are a hundred thousand, and this
 * runs once a process.
 */
function changedOnly(
  differing: readonly string[],
  said: ReadonlySet<string>,
  renamedFrom: ReadonlySet<string>,
  listed: ReadonlySet<string>,
) {
  const first: string[] = [];
  const out: string[] = [];
  const checkSets = said.size > 0 || renamedFrom.size > 0;
  for (let i = 0; i < differing.length; i++) {
    const p = differing[i]!;
    if (ours(p) || (checkSets && (said.has(p) || renamedFrom.has(p)))) continue;
    (listed.has(p) ? first : out).push(p);
  }
  return first.length > 0 ? [...first, ...out] : out;
}

/**
 * How many paths a list of the prompt names: after a large commit there are a hundred
 * thousand, which no agent reads and which would be most of every session start's work
 * (render, redact, remember). The rest are counted, with the git command that lists them.
 */
export const LISTED_PATHS = 20;

/** The first `limit` of `total` items, comma-separated, and how many more (`more` after it). */
function someOf(items: readonly string[], limit: number, total = items.length, more = ''): string {
  const shown = items.slice(0, limit);
  const list = shown.join(', ');
  return total > shown.length ? `${list} and ${thousands(total - shown.length)} more${more}` : list;
}

/** Paths as inline code, comma-separated: `code` of each; past `limit` of `total`, how many more. */
export function codeList(paths: readonly string[], limit = Number.POSITIVE_INFINITY, more = '', total = paths.length) {
  return someOf(paths.slice(0, limit).map(code), limit, total, more);
}

/**
 * The facts as the prompt and its parts carry them: the files changed since cut to the first
 * LISTED_PATHS, with their count. What git said in full still decides which pins apply.
 */
export function bounded(since: SinceFacts): SinceFacts {
  if (since.changedFiles.length <= LISTED_PATHS) return since;
  return { ...since, changedFiles: since.changedFiles.slice(0, LISTED_PATHS), changedCount: since.changedFiles.length };
}

export function renderSince(since: SinceFacts): string {
  const lines: string[] = [];
  if (!since.head) {
    lines.push('- The handoff was written before the first commit.');
  } else if (!since.headFound) {
    lines.push(
      `- Its commit ${since.head.slice(0, 12)} is not in this repository (rebased away, or not fetched): compare with care.`,
    );
  } else if (since.commitCount === 0) {
    lines.push(`- No commits since it was written (at ${since.head.slice(0, 12)}).`);
  } else {
    lines.push(
      `- ${since.commitCount} commit${since.commitCount === 1 ? '' : 's'} since it was written (at ${since.head.slice(0, 12)}):`,
    );
    for (const c of since.commits) lines.push(`  - ${c.hash.slice(0, 7)} ${c.subject}`);
    if (since.commitCount > since.commits.length)
      lines.push(`  - ... and ${since.commitCount - since.commits.length} more`);
  }
  const accounted =
    since.stillUncommitted.length +
    (since.committedSince?.length ?? 0) +
    (since.renamed?.length ?? 0) +
    (since.putBack?.length ?? 0);
  const list = (paths: readonly string[], more = '') => codeList(paths, LISTED_PATHS, more);
  if (since.changedFiles.length > 0) {
    const command = since.head ? ` (\`git diff --name-only ${since.head.slice(0, 12)}\` lists them all)` : '';
    lines.push(
      `- Files changed since then: ${codeList(since.changedFiles, LISTED_PATHS, command, since.changedCount)}`,
    );
  } else if (since.headFound) {
    lines.push(`- No ${accounted > 0 ? 'other ' : ''}tracked file has changed since then.`);
  }
  if (since.committedSince && since.committedSince.length > 0)
    lines.push(`- Uncommitted when it was written, committed since: ${list(since.committedSince)}`);
  if (since.renamed && since.renamed.length > 0) {
    const renames = since.renamed.slice(0, LISTED_PATHS).map((r) => `${code(r.from)} -> ${code(r.to)}`);
    lines.push(`- Renamed since: ${someOf(renames, LISTED_PATHS, since.renamed.length)}`);
  }
  if (since.stillUncommitted.length > 0)
    lines.push(`- Uncommitted when it was written, and still not committed: ${list(since.stillUncommitted)}`);
  if (since.putBack && since.putBack.length > 0)
    lines.push(
      `- Uncommitted when it was written, back to their committed content now (changes put back or discarded): ${list(since.putBack)}`,
    );
  if (since.missingFiles.length > 0) lines.push(`- Listed files that no longer exist: ${list(since.missingFiles)}`);
  return lines.join('\n');
}
