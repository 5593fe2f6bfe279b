// Writers that read a handoff or pin and then change it (`new`, `done`, `pin --supersedes`,
// `unpin`) run one at a time per clone, like git's index.lock: a file created exclusively
// in the git directory (never in the work tree, so never committed). A second writer waits
// for it; a lock whose process is gone is removed with one line saying so.
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { HandoffError } from '../core/errors.js';
import { alive } from './fs.js';

// Taken when used, not imported (see fs.ts): an import builds node:fs's ES module, whose getters load its streams.
const promises = () => process.getBuiltinModule('node:fs').promises;

/** Long enough for a queue of writers on a loaded machine; a held lock names its holder. */
const WAIT_MS = 120_000;
/** A holder on another host cannot be probed: its lock counts as stale after this long. */
const STALE_MS = 10 * 60_000;

/** Whether the lock's owner is gone: a dead process on this host, or an old lock from elsewhere. */
function stale(text: string, ageMs: number): boolean {
  const [pid, host] = text.split(' ');
  if (host === os.hostname() && Number(pid) > 0) return !alive(Number(pid));
  return ageMs > STALE_MS;
}

export async function withWriterLock<T>(ctx: RunContext, what: string, work: () => Promise<T>): Promise<T> {
  const fs = promises();
  if (!ctx.cacheFile) return work(); // no git directory: nothing to share a lock with
  const file = path.join(path.dirname(ctx.cacheFile), 'handoff.lock');
  const started = Date.now();
  let delay = 10;
  let mine = '';
  for (;;) {
    try {
      mine = `${process.pid} ${os.hostname()} ${new Date().toISOString()} ${what}\n`;
      await fs.writeFile(file, mine, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const lock = await look(file);
    if (lock === null) continue; // released before we looked
    const { held, stat } = lock;
    // A folder (or anything but a file) there is no lock anyone will release: waiting would be forever.
    if (!stat.isFile())
      throw new HandoffError(`${ctx.rel(file)} is not a lock file; remove it (${what} takes its lock there)`);
    const age = Date.now() - stat.mtimeMs;
    // An empty lock older than a few seconds: its writer was killed between create and write.
    if ((held.endsWith('\n') ? stale(held, age) : age > 5_000) && (await breakStale(ctx, file, lock))) continue;
    if (Date.now() - started > WAIT_MS) {
      const [pid, host, since] = held.split(' ');
      throw new HandoffError(
        `${ctx.rel(file)} is held by process ${pid} on ${host} since ${since}; if no handoff command is running, remove that file`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 200);
  }
  try {
    return await work();
  } finally {
    // Ours only: a lock another writer holds is never removed by this one.
    if ((await look(file))?.held === mine) await fs.rm(file, { force: true });
  }
}

/**
 * Removes a lock judged stale, if it is still that lock. Judged from what was read a moment
 * ago: its holder may have released it and exited since, and another writer taken the lock,
 * so removing whatever is there (or moving it aside to compare, as this once did) could take
 * a live writer's lock and let two write at once. Breakers take turns under a second lock,
 * and a stale lock's dead holder never removes it: the lock found again under that second
 * lock, the same file with the same text, is the stale one when it is removed. Whether to
 * look again at once (false: another breaker is at it, so wait).
 */
async function breakStale(ctx: RunContext, file: string, judged: { held: string; stat: Stats }): Promise<boolean> {
  const fs = promises();
  const breaker = `${file}.break`;
  const taken = await fs.writeFile(breaker, `${process.pid}\n`, { flag: 'wx' }).then(
    () => true,
    () => false,
  );
  if (!taken) {
    // Another breaker is at it; one killed at it left this file, removed once it is old.
    const left = await fs.stat(breaker).catch(() => null);
    if (left && Date.now() - left.mtimeMs > 5_000) await fs.rm(breaker, { force: true });
    return false;
  }
  try {
    const now = await look(file);
    const { held, stat } = judged;
    if (now?.held !== held || now.stat.ino !== stat.ino || now.stat.mtimeMs !== stat.mtimeMs) return true;
    await fs.rm(file, { force: true });
    ctx.stderr(
      `handoff: removed a stale lock ${ctx.rel(file)} left by process ${held.split(' ')[0]} (${held.split(' ').slice(3).join(' ').trim() || 'a writer'}), which is no longer running`,
    );
    return true;
  } finally {
    await fs.rm(breaker, { force: true });
  }
}

/** The lock's text and stat data, from one open file: both of the same lock. */
async function look(file: string): Promise<{ held: string; stat: Stats } | null> {
  const fs = promises();
  const handle = await fs.open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    return { held: stat.isFile() ? await handle.readFile('utf8') : '', stat };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
