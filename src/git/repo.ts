// Finding the work tree without starting git: `list`, `show` and `pins` only read files,
// and starting a git process would cost more than the rest of their work. Synchronous
// reads, as on every path a session start takes (store/fs.ts says why).
import path from 'node:path';
import { HandoffError } from '../core/errors.js';
import { fileStamp, readTextNow, type Stamp } from '../store/fs.js';

// Taken, not imported: see store/fs.ts.
const { existsSync, lstatSync, readFileSync } = process.getBuiltinModule('node:fs');

export async function findWorkTree(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.GIT_WORK_TREE) return path.resolve(cwd, env.GIT_WORK_TREE);
  let dir = path.resolve(cwd);
  for (;;) {
    try {
      lstatSync(path.join(dir, '.git'));
      return dir;
    } catch {
      // keep looking upwards
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new HandoffError(
    `not inside a git work tree (searched upwards from ${cwd}); run 'git init' or cd into a repository`,
  );
}

/** The git directory of a work tree (a linked worktree's own), found without starting git. */
export async function findGitDir(root: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (env.GIT_DIR) return path.resolve(root, env.GIT_DIR);
  const dotGit = path.join(root, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return pointer ? path.resolve(root, pointer[1]!.trim()) : null;
  } catch {
    return null;
  }
}

/** A whole commit id: a name that cannot come to mean another commit. */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Variables that move a repository's parts or change what a commit's history is. */
const MOVED = [
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_GRAFT_FILE',
];

/**
 * The commit HEAD is at, read from git's own files without starting git, where git's
 * answers about commits are fixed by their ids: HEAD detached, or on a branch with a loose
 * or packed ref; no replaced objects, grafts or shallow history (each changes what a
 * commit's history is). null for anything else, and then the caller asks git: no commit
 * yet, a reftable repository, a symbolic ref, a variable from MOVED.
 */
export function fixedHead(gitDir: string, env: NodeJS.ProcessEnv): string | null {
  if (MOVED.some((name) => env[name] !== undefined)) return null;
  // Looked for before it is read: most repositories have neither file (commondir is a linked
  // worktree's, a branch's loose ref goes at the next gc), and a read that fails throws, which
  // costs more than asking; asked several times a session start.
  const readIfThere = (file: string) => (existsSync(file) ? readTextNow(file) : undefined);
  try {
    const common = path.resolve(gitDir, readIfThere(path.join(gitDir, 'commondir'))?.trim() || '.');
    if (['shallow', 'info/grafts', 'refs/replace'].some((p) => existsSync(path.join(common, p)))) return null;
    const packed = readTextNow(path.join(common, 'packed-refs')) ?? '';
    if (packed.includes(' refs/replace/')) return null;
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (COMMIT_ID.test(head)) return head;
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (!ref || ref.endsWith('/.invalid')) return null;
    const loose = readIfThere(path.join(common, ref))?.trim();
    const id =
      loose ??
      packed
        .split('\n')
        .find((line) => line.endsWith(` ${ref}`))
        ?.split(' ')[0];
    return id !== undefined && COMMIT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * The stat data of the work tree's index, read without starting git: git replaces the file
 * at every change of the index, so its stat data changes too. null where git reads another
 * index (GIT_INDEX_FILE, as inside some hooks) or there is none yet.
 */
export function indexStat(gitDir: string, env: NodeJS.ProcessEnv): Stamp | null {
  return env.GIT_INDEX_FILE === undefined ? fileStamp(path.join(gitDir, 'index')) : null;
}

/** The bytes of the work tree's index, read without starting git; null where git reads another index (GIT_INDEX_FILE) or there is none. */
export function indexData(gitDir: string, env: NodeJS.ProcessEnv): Buffer | null {
  if (env.GIT_INDEX_FILE !== undefined) return null;
  try {
    return readFileSync(path.join(gitDir, 'index'));
  } catch {
    return null;
  }
}
