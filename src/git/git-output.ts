// Pure parsers for the `-z` output of git's diff, status and ls-files, and of `git log` in the
// one format we ask for, and the rule that folds base->worktree changes and the
// staged/unstaged/untracked sets into one list.
import type { ChangeKind, FileChange, FileState } from '../store/handoff.js';

export interface Commit {
  hash: string;
  subject: string;
}

/** What `git log` is asked to print: hash NUL subject NUL, per commit. */
export const LOG_FORMAT = '--format=%H%x00%s%x00';

/** `git log` in LOG_FORMAT: the commits, newest first. */
export function parseLog(out: string): Commit[] {
  const tokens = out.split('\0');
  const commits: Commit[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) commits.push({ hash: tokens[i]!.trim(), subject: tokens[i + 1]! });
  return commits;
}

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

/**
 * `git diff -z --raw --numstat`: one diff (renames detected once) printed both ways, every
 * raw entry first, then every numstat line; read as parseNameStatus and parseNumstat read
 * the two outputs alone.
 */
export function parseRawNumstat(out: string): { overall: RawChange[]; stats: Map<string, NumStat> } {
  const tokens = out.split('\0');
  const nameStatus: string[] = [];
  let i = 0;
  while (tokens[i]?.startsWith(':')) {
    const header = tokens[i++]!;
    const status = header.slice(header.lastIndexOf(' ') + 1);
    const paths = status[0] === 'R' || status[0] === 'C' ? 2 : 1;
    nameStatus.push(status, ...tokens.slice(i, i + paths));
    i += paths;
  }
  return { overall: parseNameStatus(nameStatus.join('\0')), stats: parseNumstat(tokens.slice(i).join('\0')) };
}

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

/**
 * `git status --porcelain=v2 -z --no-renames`: the paths not committed (worktree differs
 * from HEAD, or untracked and not ignored), and the paths status cannot settle: staged
 * and then changed again (the work tree may match HEAD once more), a conflict, or a
 * submodule. Those are asked of `git diff HEAD` instead. `outside`: some path is untracked,
 * or ignored (listed with `--ignored`).
 */
export function parseStatus(out: string): { uncommitted: string[]; unsure: string[]; outside: boolean } {
  const uncommitted: string[] = [];
  const unsure: string[] = [];
  let outside = false;
  for (const entry of out.split('\0')) {
    if (entry.startsWith('? ')) {
      uncommitted.push(entry.slice(2));
      outside = true;
    } else if (entry.startsWith('! ')) outside = true;
    else if (entry.startsWith('u ')) unsure.push(fieldsAfter(entry, 10));
    else if (entry.startsWith('1 ')) {
      const [, xy = '', sub = ''] = entry.split(' ', 3);
      const settled = (xy[0] === '.' || xy[1] === '.') && sub[0] === 'N';
      (settled ? uncommitted : unsure).push(fieldsAfter(entry, 8));
    }
  }
  return { uncommitted, unsure, outside };
}

/**
 * `git status --porcelain=v2 -z --no-renames --untracked-files=normal`, read as the three
 * answers it replaces: the paths staged (index against HEAD: `git diff --cached`), the
 * paths changed in the work tree (against the index: `git diff`), a conflict in both, and
 * the untracked ones, a folder that holds nothing tracked as `dir/` (`git ls-files --others
 * --directory --no-empty-directory`).
 */
export function parseStatusSets(out: string): { staged: Set<string>; unstaged: Set<string>; untracked: string[] } {
  const staged = new Set<string>();
  const unstaged = new Set<string>();
  const untracked: string[] = [];
  for (const entry of out.split('\0')) {
    if (entry.startsWith('? ')) untracked.push(entry.slice(2));
    else if (entry.startsWith('u ')) {
      const file = fieldsAfter(entry, 10);
      staged.add(file);
      unstaged.add(file);
    } else if (entry.startsWith('1 ')) {
      const file = fieldsAfter(entry, 8);
      if (entry[2] !== '.') staged.add(file);
      if (entry[3] !== '.') unstaged.add(file);
    }
  }
  return { staged, unstaged, untracked };
}

/** What follows the first `n` space-separated fields (a path may hold spaces). */
function fieldsAfter(entry: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n; i++) at = entry.indexOf(' ', at) + 1;
  return entry.slice(at);
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
    stats.set(path, m[1] === '-' ? { binary: true } : { insertions: Number(m[1]), deletions: Number(m[2]) });
  }
  return stats;
}

export function parsePathList(out: string): string[] {
  const paths = out.split('\0');
  // Git ends each path with a NUL: the one empty string is after the last. No callback per
  // path: after a large commit there are a hundred thousand.
  if (paths.at(-1) === '') paths.pop();
  return paths.includes('') ? paths.filter((p) => p !== '') : paths;
}

/** Sorted as JavaScript sorts strings: git's order (by bytes) nearly always is that already, and a look costs less than a sort. */
export function sortedPaths(paths: string[]): string[] {
  for (let i = 1; i < paths.length; i++) if (paths[i - 1]! > paths[i]!) return paths.sort();
  return paths;
}

export interface ChangeSets {
  /** base -> working tree, tracked files, renames detected. */
  overall: RawChange[];
  stats: Map<string, NumStat>;
  staged: Set<string>;
  unstaged: Set<string>;
  untracked: string[];
  /** `ls-files --others --directory`: the untracked paths with wholly untracked directories as `dir/`. */
  untrackedDirs?: string[];
  /** A wholly untracked directory with more files than this is one entry, like `git status` shows it. */
  collapseOver?: number;
}

/** Most untracked entries a list keeps; past it, every untracked directory is one entry. */
export const UNTRACKED_CAP = 200;

/**
 * Untracked paths as entries: each file, except that a wholly untracked directory holding
 * more than `over` files is one entry `dir/` with its count (3,000 files of an un-ignored
 * node_modules/ are one line). Past UNTRACKED_CAP entries every such directory folds, and
 * then whatever is left folds by its top-level directory.
 */
export function untrackedEntries(files: readonly string[], dirs: readonly string[], over: number): FileChange[] {
  const fold = (paths: readonly string[], groups: readonly string[], min: number): FileChange[] => {
    const counts = new Map<string, number>();
    const out: FileChange[] = [];
    for (const p of paths) {
      const group = groups.find((d) => p.startsWith(d));
      if (group === undefined) out.push({ path: p, change: 'added', state: 'untracked' });
      else counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    for (const [dir, n] of counts) {
      if (n > min) out.push({ path: dir, change: 'added', state: 'untracked', files: n });
      else for (const p of paths) if (p.startsWith(dir)) out.push({ path: p, change: 'added', state: 'untracked' });
    }
    return out;
  };
  const whole = dirs.filter((d) => d.endsWith('/'));
  let entries = fold(files, whole, over);
  if (entries.length > UNTRACKED_CAP) entries = fold(files, whole, 0);
  if (entries.length > UNTRACKED_CAP) {
    const tops = [...new Set(files.filter((p) => p.includes('/')).map((p) => `${p.slice(0, p.indexOf('/'))}/`))];
    entries = fold(files, tops, 0);
  }
  return entries;
}

/** Most tracked entries a list keeps; past it, files fold into their folders (foldTracked). */
export const TRACKED_CAP = 200;

/**
 * Tracked entries as a list of at most `cap`, where it can be: past it, the files of one
 * state under one folder become one entry `dir/` with their count and summed lines, at the
 * deepest level of folders whose list fits (level 1, the top-level folders, when none does).
 * A commit of 100,000 generated files is a few lines, not a 16 MB handoff.
 */
export function foldTracked(files: readonly FileChange[], cap = TRACKED_CAP): readonly FileChange[] {
  if (files.length <= cap) return files;
  const segments = files.map((f) => f.path.split('/'));
  const deepest = segments.reduce((n, s) => Math.max(n, s.length - 1), 0);
  let folded: FileChange[] = [];
  for (let level = 1; level <= deepest; level++) {
    const next = foldAt(files, segments, level);
    if (level > 1 && next.length > cap) break;
    folded = next;
    if (next.length === files.length) break;
  }
  return folded.length > 0 ? folded : files;
}

function foldAt(files: readonly FileChange[], segments: readonly string[][], level: number): FileChange[] {
  const out: FileChange[] = [];
  const groups = new Map<string, FileChange[]>();
  for (let i = 0; i < files.length; i++) {
    const parts = segments[i]!;
    if (parts.length <= level) {
      out.push(files[i]!);
      continue;
    }
    const key = `${parts.slice(0, level).join('/')}/\0${files[i]!.state}`;
    const group = groups.get(key);
    if (group) group.push(files[i]!);
    else groups.set(key, [files[i]!]);
  }
  for (const [key, group] of groups) {
    if (group.length === 1) {
      out.push(group[0]!);
      continue;
    }
    const change = group.every((f) => f.change === group[0]!.change) ? group[0]!.change : 'modified';
    const sum = (k: 'insertions' | 'deletions') => group.reduce((n, f) => n + (f[k] ?? 0), 0);
    out.push({
      path: key.slice(0, key.indexOf('\0')),
      change,
      insertions: sum('insertions'),
      deletions: sum('deletions'),
      files: group.length,
      state: group[0]!.state,
    });
  }
  return out;
}

/** One entry per path (past TRACKED_CAP, per folder), in path order; its state is the newest place the change lives. */
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
  const untracked = sets.untracked.filter((p) => !known.has(p));
  const entries = [
    ...foldTracked(files),
    ...untrackedEntries(untracked, sets.untrackedDirs ?? [], sets.collapseOver ?? Infinity),
  ];
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
