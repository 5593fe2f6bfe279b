// Finding the work tree without starting git: `list`, `show` and `pins` only read files,
// and a git process plus simple-git would double their start-up time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors.js';

export async function findWorkTree(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.GIT_WORK_TREE) return path.resolve(cwd, env.GIT_WORK_TREE);
  let dir = path.resolve(cwd);
  for (;;) {
    try {
      await fs.lstat(path.join(dir, '.git'));
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
