// Finding the work tree without starting git: `list`, `show` and `pins` only read files,
// and starting a git process would cost more than the rest of their work. Synchronous
// reads, as on every path a session start takes (store/fs.ts says why).
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../cli/errors.js';

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
  throw new HandoffError(`not inside a git work tree (searched upwards from ${cwd}); run 'git init' or cd into a repository`);
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
