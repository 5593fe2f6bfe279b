// Pure parsers for the `-z` output of git's diff and ls-files, and the rule that folds
// base->worktree changes and the staged/unstaged/untracked sets into one list.
import type { ChangeKind, FileChange, FileState } from '../store/handoff.js';

export interface RawChange {
  path: string;
  change: ChangeKind;
  from?: string;
}

const KINDS: Record<string, ChangeKind> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type-changed',
};

/** `git diff -z --name-status`: STATUS NUL path NUL, or STATUS NUL old NUL new NUL for R/C. */
export function parseNameStatus(out: string): RawChange[] {
  const tokens = out.split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i < tokens.length; ) {
    const status = tokens[i++];
    if (!status) continue;
    const kind = KINDS[status[0]!] ?? 'modified';
    if (kind === 'renamed' || kind === 'copied') {
      const from = tokens[i++]!;
      changes.push({ path: tokens[i++]!, change: kind, from });
    } else {
      changes.push({ path: tokens[i++]!, change: kind });
    }
  }
  return changes;
}

export interface NumStat {
  insertions?: number;
  deletions?: number;
  binary?: boolean;
}

/** `git diff -z --numstat`: "ins TAB del TAB path NUL", or "ins TAB del TAB NUL old NUL new NUL". */
export function parseNumstat(out: string): Map<string, NumStat> {
  const stats = new Map<string, NumStat>();
  const tokens = out.split('\0');
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i++]!;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token);
    if (!m) continue;
    let path = m[3]!;
    if (path === '') {
      i++; // the old path of a rename
      path = tokens[i++] ?? '';
    }
    stats.set(
      path,
      m[1] === '-' ? { binary: true } : { insertions: Number(m[1]), deletions: Number(m[2]) },
    );
  }
  return stats;
}

export function parsePathList(out: string): string[] {
  return out.split('\0').filter((p) => p !== '');
}

export interface ChangeSets {
  /** base -> working tree, tracked files, renames detected. */
  overall: RawChange[];
  stats: Map<string, NumStat>;
  staged: Set<string>;
  unstaged: Set<string>;
  untracked: string[];
}

/** One entry per path, in path order; its state is the newest place the change lives. */
export function combineChanges(sets: ChangeSets): FileChange[] {
  const files: FileChange[] = [];
  for (const raw of sets.overall) {
    const touched = (p: string | undefined) => p !== undefined && (sets.unstaged.has(p) || sets.staged.has(p));
    const state: FileState =
      sets.unstaged.has(raw.path) || (raw.from !== undefined && sets.unstaged.has(raw.from))
        ? 'unstaged'
        : touched(raw.path) || touched(raw.from)
          ? 'staged'
          : 'committed';
    files.push({ ...raw, ...sets.stats.get(raw.path), state });
  }
  const known = new Set(files.map((f) => f.path));
  for (const path of sets.untracked) {
    if (!known.has(path)) files.push({ path, change: 'added', state: 'untracked' });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
