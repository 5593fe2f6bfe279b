// Built once per run: where we are, the settings, the clock and id source, and output.
// Commands receive it; nothing else reads process.* or the clock.
import path from 'node:path';
import type { RunContext, Streams } from '../core/context.js';
import { HandoffError } from '../core/errors.js';
import { parseConfig, type Config } from '../store/config.js';
import { readText } from '../store/fs.js';
import { assertInside, isSymlink } from '../security/guard.js';
import { openGit, type Git } from '../git/git.js';
import { newId } from '../store/ids.js';
import { findGitDir, findWorkTree } from '../git/repo.js';
import { CACHE_FILE } from '../store/cache.js';
import { SYMLINK_REFUSED } from '../store/tree.js';

/** What every command receives: the run's place and output, its settings and the git client. */
export interface Context extends RunContext {
  config: Config;
  /** Why config.yml could not be read, when the run goes on with the defaults (`lenientConfig`). */
  configProblem?: string;
  git: () => Promise<Git>;
}

/**
 * `lenientConfig`: a config.yml that cannot be read gives the defaults and `configProblem`
 * instead of failing the run (the agent hooks: a session start still passes the pins on).
 */
export async function createContext(
  cwd: string,
  env: NodeJS.ProcessEnv,
  streams: Streams,
  lenientConfig = false,
): Promise<Context> {
  const root = await findWorkTree(cwd, env);
  const dir = path.join(root, '.handoff');
  const configFile = path.join(dir, 'config.yml');
  const rel = (file: string) => {
    const inside = path.relative(root, path.resolve(cwd, file));
    if (inside === '') return '.';
    if (!inside.startsWith('..') && !path.isAbsolute(inside)) return inside.split(path.sep).join('/');
    return path.relative(cwd, file) || '.';
  };
  // A .handoff/ (or config.yml) that links outside the repository is refused up front.
  await assertInside(root, dir, rel(dir));
  // Git keeps a link as a link: the files behind it would be in no branch, pull request or
  // commit under .handoff/, where every read from git looks for them.
  if (await isSymlink(dir))
    throw new HandoffError(
      `${rel(dir)} is a symbolic link; git keeps the link, not the files under .handoff/, so no branch or pull request would show them (replace it with a directory)`,
    );
  if (await isSymlink(configFile)) throw new HandoffError(`${rel(configFile)}: ${SYMLINK_REFUSED}`);
  const [configText, gitDir] = await Promise.all([readText(configFile), findGitDir(root, env)]);
  let config: Awaited<ReturnType<typeof parseConfig>>;
  let configProblem: string | undefined;
  try {
    config = await parseConfig(configText, rel(configFile));
  } catch (error) {
    if (!lenientConfig || !(error instanceof HandoffError)) throw error;
    configProblem = error.message.split('\n')[0];
    config = await parseConfig(undefined, rel(configFile));
  }
  for (const warning of config.warnings) streams.stderr(`handoff: warning: ${warning}`);
  let git: Promise<Git> | undefined;
  return {
    ...streams,
    cwd,
    env,
    root,
    dir,
    config: config.value,
    ...(configProblem === undefined ? {} : { configProblem }),
    configFile,
    cacheFile: gitDir && path.join(gitDir, CACHE_FILE),
    now: () => new Date(),
    newId: () => newId(Date.now()),
    git: () => (git ??= openGit(root, gitDir, env)),
    rel,
  };
}
