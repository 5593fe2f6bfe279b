// "Since the handoff": what git says has happened to the work after a handoff was
// written, decided from facts the command gathers. A file the handoff listed as
// uncommitted can since have been committed, renamed, put back, or left as it was; each
// is said apart, so a fresh agent never reads "still uncommitted" about a committed file.
import type { FileChange } from '../store/handoff.js';
import type { RawChange } from '../git/git-output.js';
import { code } from '../store/markdown.js';

export interface SinceFacts {
  head: string | null;
  headFound: boolean;
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  commitCount: number;
  /** Tracked files that differ from the handoff's commit and were not uncommitted then. */
  changedFiles: string[];
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
    changedFiles: changedOnly(git.differing, wasUncommitted, renamedFrom),
    stillUncommitted: still,
    committedSince,
    renamed,
    putBack,
    missingFiles: git.missing.filter((p) => !renamedFrom.has(p)),
  };
}

/**
 * The paths that differ, but for handoff records and the paths said apart. An indexed
 * loop, no callback per path: after a large commit there are a hundred thousand, and this
 * runs once a process.
 */
function changedOnly(differing: readonly string[], said: ReadonlySet<string>, renamedFrom: ReadonlySet<string>) {
  const out: string[] = [];
  const checkSets = said.size > 0 || renamedFrom.size > 0;
  for (let i = 0; i < differing.length; i++) {
    const p = differing[i]!;
    if (ours(p) || (checkSets && (said.has(p) || renamedFrom.has(p)))) continue;
    out.push(p);
  }
  return out;
}

/**
 * Paths as inline code, comma-separated: `code` of each. A large commit's hundred thousand
 * paths rarely hold a space or a backtick; when none does, each is only wrapped in
 * backticks, and the list is one join, with no pattern run and no string made per path.
 */
export function codeList(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  return /[\s`]/.test(paths.join('')) ? paths.map(code).join(', ') : `\`${paths.join('`, `')}\``;
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
  if (since.changedFiles.length > 0) {
    lines.push(`- Files changed since then: ${codeList(since.changedFiles)}`);
  } else if (since.headFound) {
    lines.push(`- No ${accounted > 0 ? 'other ' : ''}tracked file has changed since then.`);
  }
  if (since.committedSince && since.committedSince.length > 0)
    lines.push(`- Uncommitted when it was written, committed since: ${codeList(since.committedSince)}`);
  if (since.renamed && since.renamed.length > 0)
    lines.push(`- Renamed since: ${since.renamed.map((r) => `${code(r.from)} -> ${code(r.to)}`).join(', ')}`);
  if (since.stillUncommitted.length > 0)
    lines.push(`- Uncommitted when it was written, and still not committed: ${codeList(since.stillUncommitted)}`);
  if (since.putBack && since.putBack.length > 0)
    lines.push(
      `- Uncommitted when it was written, back to their committed content now (changes put back or discarded): ${codeList(since.putBack)}`,
    );
  if (since.missingFiles.length > 0) lines.push(`- Listed files that no longer exist: ${codeList(since.missingFiles)}`);
  return lines.join('\n');
}
