// Many writers at once in one repository: every one succeeds, every file is distinct and
// valid, and nothing is left half-written.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/store/handoff.js';
import { parsePin } from '../../src/store/pin.js';
import { listFiles, makeRepo } from '../helpers.js';
import { runs, TIMEOUT } from './arbitraries.js';
import { start } from './spawn.js';

describe('concurrent writers', () => {
  const n = runs(50, 150);
  it(
    `${n} handoff new and ${n} handoff pin started at once: ${2 * n} distinct valid files`,
    async () => {
      const repo = makeRepo();
      expect(repo.handoff(['init']).code).toBe(0);
      repo.commit('work', { 'src/a.ts': 'export const a = 1;\n' });
      repo.write('src/b.ts', 'export const b = 2;\n');
      const jobs = [];
      for (let i = 0; i < n; i++) {
        jobs.push(start(repo.dir, ['new', `goal number ${i}`, '--no-edit']).done);
        jobs.push(start(repo.dir, ['pin', `constraint number ${i}`]).done);
      }
      const results = await Promise.all(jobs);
      const failed = results.filter((r) => r.code !== 0);
      expect(failed.map((r) => r.stderr).slice(0, 3)).toEqual([]);

      const handoffDir = path.join(repo.dir, '.handoff/handoffs');
      const pinDir = path.join(repo.dir, '.handoff/pins');
      const handoffFiles = listFiles(handoffDir, { dots: true });
      const pinFiles = readdirSync(pinDir);
      // No temp files left behind, no extra or missing files.
      expect(handoffFiles.filter((f) => !f.endsWith('.md') || f.startsWith('.'))).toEqual([]);
      expect(pinFiles.filter((f) => !f.endsWith('.md') || f.startsWith('.'))).toEqual([]);
      expect(handoffFiles).toHaveLength(n);
      expect(pinFiles).toHaveLength(n);

      const handoffs = handoffFiles.map((f) => parseHandoff(readFileSync(path.join(handoffDir, f), 'utf8'), f));
      const ids = new Set(handoffs.map((h) => h.meta.id));
      // Links between handoffs point at handoffs that exist.
      for (const h of handoffs) {
        if (h.meta.parent) expect(ids.has(h.meta.parent)).toBe(true);
        if (h.meta.status === 'superseded') expect(ids.has(h.meta.superseded_by!)).toBe(true);
      }
      const goals = handoffs.map((h) => {
        expect(`${h.meta.id}.md`).toBe(path.basename(h.file));
        expect(h.meta.files.map((x) => x.path)).toEqual(['src/b.ts']);
        return h.meta.goal;
      });
      expect(new Set(goals).size).toBe(n);
      const texts = pinFiles.map((f) => parsePin(readFileSync(path.join(pinDir, f), 'utf8'), f).text);
      expect(new Set(texts).size).toBe(n);

      // The tool reads back what it wrote, with no warnings.
      const list = repo.handoff(['list', '--json']);
      expect(list.stderr).toBe('');
      expect(JSON.parse(list.stdout).handoffs).toHaveLength(n);
      const pins = repo.handoff(['pins', '--json']);
      expect(pins.stderr).toBe('');
      expect(JSON.parse(pins.stdout).pins).toHaveLength(n);
      // The roadmap of all of it is consistent: generated once, then current.
      expect(repo.handoff(['roadmap']).code).toBe(0);
      expect(repo.handoff(['roadmap', '--check']).code).toBe(0);
      console.log(`concurrency: ${2 * n} writers, ${handoffFiles.length + pinFiles.length} files parsed and checked`);
    },
    TIMEOUT,
  );

  it(
    'hooks racing on the roadmap (a commit, a checkout, a manual run) leave it whole and current',
    async () => {
      const repo = makeRepo();
      expect(repo.handoff(['init']).code).toBe(0);
      for (let i = 0; i < 5; i++) repo.handoff(['pin', `rule ${i}`]);
      repo.handoff(['new', 'race the roadmap', '--no-edit']);
      const racers = runs(10, 40);
      const jobs = [];
      for (let i = 0; i < racers; i++) {
        jobs.push(start(repo.dir, ['git-hook', 'refresh']).done); // what post-checkout/merge run
        jobs.push(start(repo.dir, ['roadmap']).done);
      }
      const results = await Promise.all(jobs);
      expect(
        results
          .filter((r) => r.code !== 0)
          .map((r) => r.stderr)
          .slice(0, 3),
      ).toEqual([]);
      const check = repo.handoff(['roadmap', '--check']);
      expect(check.stdout + check.stderr).not.toContain('differs');
      expect(check.code).toBe(0);
      expect(readdirSync(path.join(repo.dir, '.handoff')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      console.log(`concurrency: ${2 * racers} roadmap writers raced; the file is whole and current`);
    },
    TIMEOUT,
  );
});
