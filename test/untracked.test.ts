// A directory git neither tracks nor ignores is one entry in a handoff, the way `git status`
// shows it, instead of thousands of lines in the handoff and in every resume prompt.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

describe('untracked directories', () => {
  it('list an un-ignored node_modules/ of 3,000 files as one line, and a small new folder file by file', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('init handoff');
    for (let d = 0; d < 30; d++) {
      const dir = path.join(repo.dir, 'node_modules', `pkg${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `f${f}.js`), 'module.exports = 1;\n');
    }
    repo.write('src/new/a.ts', 'export const a = 1;\n');
    repo.write('src/new/b.ts', 'export const b = 2;\n');

    const made = repo.handoff(['new', 'wire the new module']);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('handoff: 3,002 files and 0 commits');
    const text = repo.read(made.stdout.trim());
    expect(text).toContain('- path: "node_modules/"\n    change: "added"\n    files: 3000\n    state: "untracked"');
    expect(text).toContain('`node_modules/` (3,000 untracked files)');
    expect(text).toContain('`src/new/a.ts` (added, untracked)');
    expect(text).not.toContain('pkg0');
    expect(text.length).toBeLessThan(5_000);

    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('`node_modules/` (3,000 untracked files)');
    expect(resume.stdout).not.toContain('pkg0');
    // Still untracked: said so, not "committed since" or "put back".
    expect(resume.stdout).toMatch(/still not committed: [^\n]*`node_modules\/`/);
  });

  it('follows untracked_dir_files in config.yml', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.write('.handoff/config.yml', 'untracked_dir_files: 1\n');
    repo.commit('init handoff');
    repo.write('src/new/a.ts', 'export const a = 1;\n');
    repo.write('src/new/b.ts', 'export const b = 2;\n');
    const made = repo.handoff(['new', 'wire the new module']);
    expect(made.code).toBe(0);
    expect(repo.read(made.stdout.trim())).toContain('`src/` (2 untracked files)');

    repo.write('.handoff/config.yml', 'untracked_dir_files: many\n');
    const bad = repo.handoff(['new', 'again']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/config\.yml.*untracked_dir_files must be a whole number/);
  });
});
