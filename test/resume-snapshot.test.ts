// The last resume prompt, remembered under everything it was made from (resume/snapshot.ts):
// read back while nothing it was made from moved, and made afresh as soon as a pin, the
// handoff, git's answers or the token budget change. A prompt with a secret redacted from
// it is never remembered.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type Repo } from './helpers.js';

const fileOf = (repo: Repo) => path.join(repo.dir, '.git', 'handoff-resume.json');

type Kept = { file: string; made: string; prompt: string };
const snapshots = (repo: Repo): Kept[] =>
  existsSync(fileOf(repo)) ? (JSON.parse(readFileSync(fileOf(repo), 'utf8')) as { kept: Kept[] }).kept : [];

/** Every remembered prompt replaced by a marker: a run that prints the marker read it back. */
function mark(repo: Repo): void {
  const data = JSON.parse(readFileSync(fileOf(repo), 'utf8')) as { kept: Kept[] };
  for (const k of data.kept) k.prompt = 'REMEMBERED\n';
  writeFileSync(fileOf(repo), JSON.stringify(data));
}

describe('the remembered resume prompt', () => {
  it('is read back while nothing it was made from moved, and made afresh when a part of it does', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'never touch the auth module']);
    const file = repo.handoff(['new', 'ship the parser', '--no-edit']).stdout.trim();
    const first = repo.handoff(['resume']).stdout;
    expect(snapshots(repo).map((k) => [k.file, k.prompt])).toEqual([[file, first]]);
    // The parts keep what the key holds already (the pins in play, the listed files, git's
    // answers) as where the key holds them, and give them back whole: --json reads the same.
    const json = repo.handoff(['resume', '--json']).stdout;
    const stored = snapshots(repo)[0] as Kept & { parts: { pins: unknown; since: unknown; files: unknown } };
    expect([stored.parts.pins, stored.parts.since, stored.parts.files]).toEqual([[0], 0, 0]);
    expect(JSON.parse(json).pins).toEqual([expect.objectContaining({ text: 'never touch the auth module' })]);
    expect(repo.handoff(['resume', '--json']).stdout).toBe(json);
    expect(repo.handoff(['resume']).stdout).toBe(first);

    mark(repo);
    expect(repo.handoff(['resume']).stdout).toBe('REMEMBERED\n');
    // A new pin: made afresh, with it.
    repo.handoff(['pin', 'keep the public API stable']);
    mark(repo);
    const pinned = repo.handoff(['resume']).stdout;
    expect(pinned).toContain('keep the public API stable');
    expect(pinned).not.toBe('REMEMBERED\n');
    // The handoff edited by hand.
    mark(repo);
    repo.write(file, repo.read(file).replace('## Next steps\n', '## Next steps\n\n- write the benchmark\n'));
    expect(repo.handoff(['resume']).stdout).toContain('write the benchmark');
    // A commit: git's answer about what happened since is part of the key.
    mark(repo);
    repo.commit('more work', { 'src/more.ts': 'export const more = 1;\n' });
    expect(repo.handoff(['resume']).stdout).toContain('`src/more.ts`');
    // A work-tree change git reports is too.
    mark(repo);
    repo.write('README.md', '# project, changed\n');
    expect(repo.handoff(['resume']).stdout).toContain('`README.md`');
    // And the token budget.
    mark(repo);
    repo.write('.handoff/config.yml', 'resume_tokens: 100\n');
    expect(repo.handoff(['resume']).stdout).not.toBe('REMEMBERED\n');
    // --json gives back the same parts from the remembered prompt as from a fresh one.
    const fresh = repo.handoff(['resume', '--json']).stdout;
    expect(repo.handoff(['resume', '--json']).stdout).toBe(fresh);
  });

  it('never remembers a prompt a secret was redacted from', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const file = repo.handoff(['new', 'rotate the keys', '--no-edit']).stdout.trim();
    const token = 'gh' + 'p_' + 'Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pa0SdFgHjKl';
    repo.write(file, repo.read(file).replace('## Next steps\n', `## Next steps\n\n- push with ${token}\n`));
    for (let run = 0; run < 2; run++) {
      const r = repo.handoff(['resume']);
      expect(r.stderr).toContain('handoff: redacted 1 secret (github-pat) from the resume prompt');
      expect(r.stdout).not.toContain(token.slice(-12));
    }
    expect(snapshots(repo)).toEqual([]);
    const git = path.join(repo.dir, '.git');
    expect(readFileSync(path.join(git, 'handoff-cache.json'), 'utf8')).not.toContain(token.slice(-12));
    // --allow-secret prints it, and remembers nothing either.
    expect(repo.handoff(['resume', '--allow-secret']).stdout).toContain(token);
    expect(snapshots(repo)).toEqual([]);
  });
});
