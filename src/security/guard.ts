// .handoff/ arrives in pull requests from strangers: it, or a directory in it, can be a
// symbolic link to somewhere else on the machine. Before reading or writing, the real
// location must still be inside the work tree; symbolic-link files inside are skipped.
import path from 'node:path';
import { HandoffError } from '../core/errors.js';

// Taken, not imported: see store/fs.ts.
const { lstatSync, realpathSync } = process.getBuiltinModule('node:fs');

// Synchronous, as every read on the paths a session start takes (store/fs.ts says why).
// The native realpath(3): the JavaScript one walks the path a component at a time, in code
// that every session start runs for the first time, and is asked several times a run.
async function real(p: string): Promise<string | undefined> {
  try {
    return realpathSync.native(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Throws unless `dir` (when it exists) really lies inside `root`. */
export async function assertInside(root: string, dir: string, shownAs: string): Promise<void> {
  const [r, d] = await Promise.all([real(root), real(dir)]);
  if (r === undefined || d === undefined) return;
  if (d !== r && !d.startsWith(r.endsWith(path.sep) ? r : r + path.sep)) {
    throw new HandoffError(
      `${shownAs} is a symbolic link to ${d}, outside the repository; refusing to read or write there (replace it with a directory)`,
    );
  }
}

/** Whether `file` is a symbolic link (read commands skip those with a warning). */
export async function isSymlink(file: string): Promise<boolean> {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * A file the tool generates (the roadmap) at a path a committed config.yml names: throws
 * unless its directory really lies inside `root` and the file itself is not a link, so
 * neither a read nor a write goes through a link to somewhere else on the machine.
 */
export async function assertPlainFileInside(root: string, rel: string): Promise<void> {
  const file = path.join(root, rel);
  if (await isSymlink(file)) {
    throw new HandoffError(
      `${rel} is a symbolic link; it is never read or written through a link (it could lead outside the repository): delete it and run 'handoff roadmap'`,
    );
  }
  let dir = path.dirname(file);
  while (dir !== root && dir.startsWith(root) && (await real(dir)) === undefined) dir = path.dirname(dir);
  const [r, d] = await Promise.all([real(root), real(dir)]);
  if (r !== undefined && d !== undefined && d !== r && !d.startsWith(r.endsWith(path.sep) ? r : r + path.sep)) {
    throw new HandoffError(
      `${path.relative(root, dir) || '.'} (in the path of ${rel}) is a symbolic link to ${d}, outside the repository; refusing to read or write there (replace it with a directory)`,
    );
  }
}
