// Writers take turns: handoffs started at once on one branch form one chain, a lock left
// by a killed process is recovered, and a `new` killed between its two writes is repaired.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/store/handoff.js';
import { listFiles, makeRepo } from '../helpers.js';
import { TIMEOUT } from './arbitraries.js';
import { start } from './spawn.js';

/** An initialized repository with a commit of work. */
function workRepo() {
  const repo = makeRepo();
  expect(repo.handoff(['init']).code).toBe(0);
  repo.commit('work', { 'src/a.ts': 'export const a = 1;\n' });
  return repo;
}

/** Ten `handoff new` started at once; each must succeed. */
async function tenAtOnce(dir: string) {
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => start(dir, ['new', `goal ${i}`, '--no-edit']).done),
  );
  expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
  return results;
}

/** The lock, a breaker or a lock moved aside: what a writer could leave in the git directory. */
const lockFiles = (dir: string) => readdirSync(path.join(dir, '.git')).filter((f) => f.startsWith('handoff.lock'));

function handoffs(dir: string) {
  const d = path.join(dir, '.handoff/handoffs');
  return listFiles(d).map((f) => parseHandoff(readFileSync(path.join(d, f), 'utf8'), f));
}

describe('the writer lock', () => {
  it(
    'ten handoff new at once on one branch form one linear chain',
    async () => {
      const repo = workRepo();
      await tenAtOnce(repo.dir);
      const all = handoffs(repo.dir);
      expect(all).toHaveLength(10);
      expect(all.filter((h) => h.meta.status === 'open')).toHaveLength(1);
      // Walk from the one root to the one open handoff: every handoff once, each superseded by its child.
      const byParent = new Map(all.map((h) => [h.meta.parent ?? null, h]));
      expect(byParent.size).toBe(10);
      let walked = 0;
      for (let h = byParent.get(null); h; h = byParent.get(h.meta.id)) {
        walked++;
        const child = byParent.get(h.meta.id);
        if (child) expect(h.meta).toMatchObject({ status: 'superseded', superseded_by: child.meta.id });
      }
      expect(walked).toBe(10);
      expect(lockFiles(repo.dir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'ten handoff new at once, all finding a stale lock, still form one chain: only that lock is removed',
    async () => {
      const repo = workRepo();
      // Every writer judges this lock stale; the first to remove it takes the lock, and the
      // others, acting on what they judged, must not remove that one.
      writeFileSync(
        path.join(repo.dir, '.git/handoff.lock'),
        `4194305 ${os.hostname()} 2026-01-01T00:00:00.000Z handoff new\n`,
      );
      const results = await tenAtOnce(repo.dir);
      const all = handoffs(repo.dir);
      expect(all).toHaveLength(10);
      expect(all.filter((h) => h.meta.status === 'open')).toHaveLength(1);
      expect(new Set(all.map((h) => h.meta.parent ?? null)).size).toBe(10);
      expect(results.filter((r) => r.stderr.includes('removed a stale lock'))).toHaveLength(1);
      expect(lockFiles(repo.dir)).toEqual([]);
    },
    TIMEOUT,
  );

  it('names a folder where the lock goes instead of waiting on it forever', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    mkdirSync(path.join(repo.dir, '.git/handoff.lock'));
    const r = repo.handoff(['new', 'blocked', '--no-edit']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'handoff: .git/handoff.lock is not a lock file; remove it (handoff new takes its lock there)\n',
    );
    expect(handoffs(repo.dir)).toEqual([]);
  });

  it('removes a lock whose process is gone, saying so, and carries on', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    // A pid that cannot be running: above the kernel's pid_max.
    writeFileSync(
      path.join(repo.dir, '.git/handoff.lock'),
      `4194305 ${os.hostname()} 2026-01-01T00:00:00.000Z handoff new\n`,
    );
    const r = repo.handoff(['new', 'after a crash', '--no-edit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'handoff: removed a stale lock .git/handoff.lock left by process 4194305 (handoff new), which is no longer running',
    );
    expect(lockFiles(repo.dir)).toEqual([]);
  });

  it('repairs a handoff new killed between writing the child and superseding the parent', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['new', 'first', '--no-edit']).code).toBe(0);
    expect(repo.handoff(['new', 'second', '--no-edit']).code).toBe(0);
    const [first, second] = handoffs(repo.dir).sort((a, b) => (a.meta.id < b.meta.id ? -1 : 1));
    // The state a kill leaves: the child written, the parent still open.
    const file = path.join(
      repo.dir,
      first!.file.startsWith('.handoff') ? first!.file : `.handoff/handoffs/${first!.file}`,
    );
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('status: "superseded"', 'status: "open"')
        .replace(/^superseded_by: .*\n/m, ''),
    );
    expect(handoffs(repo.dir).filter((h) => h.meta.status === 'open')).toHaveLength(2);
    const r = repo.handoff(['new', 'third', '--no-edit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `handoff: repaired an interrupted handoff new: ${first!.meta.id} is now superseded by ${second!.meta.id}`,
    );
    const after = handoffs(repo.dir);
    expect(after.filter((h) => h.meta.status === 'open').map((h) => h.meta.goal)).toEqual(['third']);
    expect(after.find((h) => h.meta.id === first!.meta.id)!.meta.superseded_by).toBe(second!.meta.id);
  });
});
