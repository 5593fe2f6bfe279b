// Files under .handoff/: written through a temp file in the same directory, so a crash
// or a kill leaves the old state or the new one, never half a file. Also the synchronous
// reads every command makes, and scratch files for git's output.
//
// write-file-atomic does the replace half of this, but not "create, and fail if it
// exists"; link(2) gives that atomically, so both halves live here in a few lines.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  promises as fs,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HandoffError } from '../core/errors.js';

async function writeTemp(target: string, content: string): Promise<string> {
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await fs.open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Creates `target` with `content`; fails, changing nothing, if it already exists. */
export async function createFileAtomic(target: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = await writeTemp(target, content);
  try {
    await fs.link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new HandoffError(`${target} already exists; refusing to overwrite it`);
    }
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Replaces `target` with `content` in one step. */
export async function replaceFileAtomic(target: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = await writeTemp(target, content);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
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
  await fs.mkdir(dir, { recursive: true });
}

/** A file that holds what a child process writes to one of its descriptors (git-plumbing.ts). */
export interface ScratchFile {
  fd: number;
  /** Everything written to it so far; then it is closed (and removed), and later calls return the same. */
  take(): Buffer;
}

/**
 * A scratch file for a child's output: created in the OS temp directory, exclusively (a
 * name already taken, or a link planted there, is refused) and readable by this user
 * alone. It is removed at once where an open file can be (POSIX), so nothing is left
 * behind even by a kill; on Windows when taken. Throws when the temp directory refuses.
 */
export function scratchFile(): ScratchFile {
  for (let attempt = 0; ; attempt++) {
    // Math.random, not crypto: the exclusive open is what makes the name safe, and
    // node:crypto costs a session start milliseconds to load.
    const file = path.join(os.tmpdir(), `handoff-${process.pid}-${Math.random().toString(36).slice(2)}.out`);
    let fd: number;
    try {
      fd = openSync(file, 'wx+', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 10) continue;
      throw error;
    }
    const windows = process.platform === 'win32';
    if (!windows) {
      try {
        unlinkSync(file);
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    }
    let taken: Buffer | undefined;
    return {
      fd,
      take() {
        if (taken) return taken;
        taken = Buffer.alloc(0);
        try {
          const size = fstatSync(fd).size;
          const bytes = Buffer.allocUnsafe(size);
          let read = 0;
          // Read from the start by position: the child moved the shared offset to the end.
          while (read < size) {
            const n = readSync(fd, bytes, read, size - read, read);
            if (n === 0) break;
            read += n;
          }
          return (taken = bytes.subarray(0, read));
        } finally {
          closeSync(fd);
          if (windows) rmSync(file, { force: true });
        }
      },
    };
  }
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
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    await fs.rm(path.join(dir, name), { force: true });
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
