// Writers that read a handoff or pin and then change it (`new`, `done`, `pin --supersedes`,
// `unpin`) run one at a time per clone, like git's index.lock: a file created exclusively
// in the git directory (never in the work tree, so never committed). A second writer waits
// for it; a lock whose process is gone is removed with one line saying so.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { HandoffError } from '../core/errors.js';
import { alive } from './fs.js';

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
  if (!ctx.cacheFile) return work(); // no git directory: nothing to share a lock with
  const file = path.join(path.dirname(ctx.cacheFile), 'handoff.lock');
  const started = Date.now();
  let delay = 10;
  for (;;) {
    try {
      await fs.writeFile(file, `${process.pid} ${os.hostname()} ${new Date().toISOString()} ${what}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await fs.readFile(file, 'utf8').catch(() => null);
    const stat = await fs.stat(file).catch(() => null);
    if (held === null || stat === null) continue; // released between our two looks
    const age = Date.now() - stat.mtimeMs;
    // An empty lock older than a few seconds: its writer was killed between create and write.
    if (held.endsWith('\n') ? stale(held, age) : age > 5_000) {
      // Rename first so only one waiter removes it, then retry taking it.
      const aside = `${file}.stale-${process.pid}`;
      if (
        await fs.rename(file, aside).then(
          () => true,
          () => false,
        )
      ) {
        await fs.rm(aside, { force: true });
        ctx.stderr(
          `handoff: removed a stale lock ${ctx.rel(file)} left by process ${held.split(' ')[0]} (${held.split(' ').slice(3).join(' ').trim() || 'a writer'}), which is no longer running`,
        );
      }
      continue;
    }
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
    await fs.rm(file, { force: true });
  }
}
