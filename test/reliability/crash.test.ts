// SIGKILL real processes at random points while they write: every file under .handoff/
// is then the old state or the new one, never a partial file. Large bodies make the
// write window wide enough to be hit often.
import { mkdirSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/store/handoff.js';
import { parsePin } from '../../src/store/pin.js';
import { makeRepo, type Repo } from '../helpers.js';
import { runs, TIMEOUT } from './arbitraries.js';
import { prng } from './fuzz.js';
import { start } from './spawn.js';

const KILLS = runs(8, 100);
const BIG = '## Goal\n\nship it\n\n## Notes\n\n' + 'the quick brown fox jumps over the lazy dog\n'.repeat(20_000); // ~0.9 MB: under the 1 MiB a handoff may hold

interface Tally {
  kills: number;
  old: number;
  new: number;
  finished: number;
  tempLeft: number;
}

function everyFileValid(repo: Repo): number {
  let temps = 0;
  for (const [sub, parse] of [
    ['handoffs', parseHandoff],
    ['pins', parsePin],
  ] as const) {
    const dir = path.join(repo.dir, '.handoff', sub);
    // Handoffs are in dated folders (YYYY-MM/DD/), pins directly in pins/.
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const name = path.basename(rel);
      if (!statSync(path.join(dir, rel)).isFile()) continue;
      if (name.startsWith('.') && name.endsWith('.tmp')) {
        temps++;
        continue;
      }
      parse(readFileSync(path.join(dir, rel), 'utf8'), name); // throws on a partial file
    }
  }
  return temps;
}

/**
 * Starts the command and kills it at a random moment inside its write: a few
 * milliseconds after its temp file appears in `dir` (watched with inotify), so the kill
 * lands in the write window however loaded the machine is.
 */
async function killDuringWrite(repo: Repo, args: string[], dir: string, rand: () => number): Promise<boolean> {
  const { child, done } = start(repo.dir, args);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dir, (_event, name) => {
    if (timer || !name?.endsWith('.tmp')) return;
    timer = setTimeout(() => child.kill('SIGKILL'), Math.floor(rand() * 40));
  });
  const result = await done;
  watcher.close();
  clearTimeout(timer);
  return result.signal === 'SIGKILL';
}

describe(`crashes: SIGKILL at random points (${KILLS} kills per writer)`, () => {
  it(
    'done (replace in place): the handoff is the old file or the new one',
    async () => {
      const repo = makeRepo();
      repo.handoff(['init']);
      const file = repo.handoff(['new', 'ship it', '--no-edit', '-F', '-', '--replace'], { input: BIG }).stdout.trim();
      const full = path.join(repo.dir, file);
      const before = readFileSync(full);
      const rand = prng(7);
      const tally: Tally = { kills: 0, old: 0, new: 0, finished: 0, tempLeft: 0 };
      while (tally.kills < KILLS) {
        const killed = await killDuringWrite(repo, ['done'], path.dirname(full), rand);
        const now = readFileSync(full);
        const status = parseHandoff(now.toString('utf8'), file).meta.status;
        if (killed) tally.kills++;
        else tally.finished++;
        if (now.equals(before)) tally.old++;
        else {
          expect(status).toBe('done');
          expect(now.toString('utf8').endsWith(BIG)).toBe(true);
          tally.new++;
          writeFileSync(full, before);
        }
        tally.tempLeft = everyFileValid(repo);
      }
      const after = repo.handoff(['done']);
      expect(after.code).toBe(0);
      if (tally.tempLeft > 0) expect(after.stderr).toContain(`removed ${tally.tempLeft} temp file`);
      expect(everyFileValid(repo)).toBe(0);
      console.log(
        `crash/done: ${tally.kills} kills, ${tally.finished} runs finished first; states seen: ${tally.old} old, ${tally.new} new, 0 partial; ${tally.tempLeft} temp files from killed writers, removed by the next write`,
      );
      expect(tally.old + tally.new).toBe(tally.kills + tally.finished);
    },
    TIMEOUT,
  );

  it(
    'new and pin (create): each file is absent or complete',
    async () => {
      const repo = makeRepo();
      repo.handoff(['init']);
      const rand = prng(11);
      let kills = 0;
      let finished = 0;
      let temps = 0;
      const input = path.join(repo.dir, 'body.md');
      writeFileSync(input, BIG);
      for (let i = 0; kills < KILLS; i++) {
        const args = i % 2 === 0 ? ['new', `goal ${i}`, '--no-edit', '-F', input] : ['pin', '--file', input];
        if (i % 2 === 1) writeFileSync(input, `pin ${i}\n${BIG}`);
        // A new handoff's temp file appears in today's dated folder (its id is made now).
        const today = new Date().toISOString();
        const dir = path.join(
          repo.dir,
          '.handoff',
          i % 2 === 0 ? `handoffs/${today.slice(0, 7)}/${today.slice(8, 10)}` : 'pins',
        );
        mkdirSync(dir, { recursive: true });
        const killed = await killDuringWrite(repo, args, dir, rand);
        if (killed) kills++;
        else finished++;
        temps = everyFileValid(repo);
      }
      const files = repo.files('.handoff/handoffs').length + repo.files('.handoff/pins').length;
      console.log(
        `crash/create: ${kills} kills, ${finished} runs finished first; ${files} complete files, 0 partial; ${temps} temp files from killed writers, removed by the next write`,
      );
      expect(repo.handoff(['list']).stderr).toBe('');
      // The next writer removes what killed writers left behind.
      expect(repo.handoff(['pin', 'after the crashes']).code).toBe(0);
      expect(repo.handoff(['new', 'after the crashes', '--no-edit']).code).toBe(0);
      expect(everyFileValid(repo)).toBe(0);
    },
    TIMEOUT,
  );
});
