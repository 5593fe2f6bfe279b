// Files under .handoff/: written through a temp file in the same directory, so a crash
// or a kill leaves the old state or the new one, never half a file. Also the synchronous
// reads every command makes.
//
// write-file-atomic does the replace half of this, but not "create, and fail if it
// exists"; link(2) gives that atomically, so both halves live here in a few lines.
import path from 'node:path';
import { HandoffError } from '../core/errors.js';

// node:fs is taken from node, not imported, here and in the other modules every run loads:
// an import makes node build an ES module of fs, reading every export, and its getters
// load fs/promises and node's streams (node:util's, worker_threads); a hook would pay
// for them at every commit (bench/hot-paths.js). The promises API is read where used.
const nodeFs = process.getBuiltinModule('node:fs');
const { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } = nodeFs;

async function writeTemp(target: string, content: string): Promise<string> {
  // Taken here: only the commands that write under .handoff/ need node:crypto; taken, not
  // imported, as node:fs above (an import builds its ES module, whose getters load Web Crypto).
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await nodeFs.promises.open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/**
 * The temporary files this process writes beside `rel` (repository-relative, `/`) before
 * renaming them over it, as a pathspec with git's glob magic: what a `git add` running
 * meanwhile leaves out.
 */
export function ownTempsPathspec(rel: string): string {
  const literal = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');
  const dir = path.posix.dirname(rel);
  return `:(top,exclude,glob)${dir === '.' ? '' : `${literal(dir)}/`}.${literal(path.posix.basename(rel))}.${process.pid}.*.tmp`;
}

/** Creates `target` with `content`; fails, changing nothing, if it already exists. */
export async function createFileAtomic(target: string, content: string): Promise<void> {
  await nodeFs.promises.mkdir(path.dirname(target), { recursive: true });
  const temp = await writeTemp(target, content);
  try {
    await nodeFs.promises.link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new HandoffError(`${target} already exists; refusing to overwrite it`);
    }
    throw error;
  } finally {
    await nodeFs.promises.rm(temp, { force: true });
  }
}

/** Replaces `target` with `content` in one step. */
export async function replaceFileAtomic(target: string, content: string): Promise<void> {
  await nodeFs.promises.mkdir(path.dirname(target), { recursive: true });
  const temp = await writeTemp(target, content);
  try {
    await nodeFs.promises.rename(temp, target);
  } catch (error) {
    await nodeFs.promises.rm(temp, { force: true });
    throw error;
  }
}

/**
 * For files in the git directory that only save time (the cache, the validated-tree
 * record): atomic (temp + rename) but not fsynced, since losing one in a crash costs one
 * slower run and an fsync would be paid on every commit; any failure (a read-only git
 * directory) is ignored and leaves no temp file. Synchronous, like the reads below: a
 * session start that saves the cache pays no thread-pool round trips for it.
 */
export async function writeDisposable(file: string, text: string): Promise<void> {
  writeDisposableSync(file, text);
}

/** writeDisposable, for the last write of a process (on its 'beforeExit'), when nothing may be awaited. */
export function writeDisposableSync(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}

// The reads below are synchronous, as the reader's are (store/reader.ts): every command and
// hook makes a few, and each fs.promises call costs thread-pool round trips (and, at the
// first, loading fs/promises), more than the read itself.
export async function readText(file: string): Promise<string | undefined> {
  return readTextNow(file);
}

/** ctime and mtime in ms, size, inode: what changes when a file is written anew (as git's index keeps a file's). */
export type Stamp = [ctimeMs: number, mtimeMs: number, size: number, ino: number];

/** The stamp of the regular file at `file` (a link is not followed); null when there is none. */
export function fileStamp(file: string): Stamp | null {
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st?.isFile() ? [st.ctimeMs, st.mtimeMs, st.size, st.ino] : null;
}

/**
 * A path's stamp for a remembered answer of git's about it: null when there is nothing
 * there; undefined when it cannot vouch (a folder, changed too recently to tell a later
 * change in the same clock tick apart, or not readable).
 */
export function vouchingStamp(file: string, racy: number): Stamp | null | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // a parent that is not a folder, no permission: git is asked
  }
  if (!st) return null;
  return st.isDirectory() || st.ctimeMs >= racy ? undefined : [st.ctimeMs, st.mtimeMs, st.size, st.ino];
}

/** readText(), for a caller that must not wait: the text, or undefined when there is no such file. */
export function readTextNow(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function exists(file: string): Promise<boolean> {
  return present(file);
}

/** exists(), for a caller that must not wait: a symbolic link counts, even one to nothing. */
export function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

export async function ensureDir(dir: string): Promise<void> {
  await nodeFs.promises.mkdir(dir, { recursive: true });
}

const TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;
/** Ours in the git directory: the cache's and the record's temp files, the record's temporary index. */
export const GIT_DIR_TEMP = /^handoff-[a-z-]+(?:\.json)?\.(\d+)\.(?:tmp|index)$/;

/**
 * Removes temp files whose writer is gone (killed mid-write): under .handoff/ they are
 * hidden from the tool but `git add -A` would commit them; in the git directory they
 * would only pile up. A temp file whose process id is alive (or reused) is left alone.
 * Returns how many were removed.
 */
export async function sweepTemps(dir: string, pattern = TEMP): Promise<number> {
  let names: string[];
  try {
    names = await nodeFs.promises.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    await nodeFs.promises.rm(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

/** Whether a process of this host is still running (EPERM: it is, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
