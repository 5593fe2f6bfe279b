// What a fresh agent must not miss: an unreadable pin, an unreadable handoff, a handoff
// that is no longer open, and commits that only saved handoff records.
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

const idOf = (out: string) => out.match(/([0-9a-z]{26})/)![1]!;

describe('resume tells the agent what it cannot see', () => {
  it('says in the prompt that a pin could not be read', () => {
    const repo = makeRepo();
    const pin = repo.handoff(['pin', 'never touch auth']).stdout.match(/(\.handoff\/pins\/\S+\.md)/)![1]!;
    repo.handoff(['new', 'work', '--no-edit']);
    repo.write(pin, repo.read(pin).replace('status: "active"', 'status: "actve"'));
    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toMatch(
      /^Warning: 1 pinned constraint file could not be read and is missing below; ask the user/,
    );
    expect(resume.stderr).toContain('warning: skipped');
  });

  it('names an unreadable handoff instead of saying there is none', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'work', '--no-edit']).stdout.trim();
    repo.write(file, repo.read(file).replace('status: "open"', 'status: "Open"'));
    const list = repo.handoff(['list']);
    expect(list.stdout).toBe('No readable handoffs: 1 file could not be read (see below).\n');
    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain(
      "no open handoff on branch 'main'; 1 handoff file could not be read (see above): fix it before writing a new one",
    );
  });

  it('says when the handoff resumed is done or superseded', () => {
    const repo = makeRepo();
    const first = idOf(repo.handoff(['new', 'one', '--no-edit']).stdout);
    const second = idOf(repo.handoff(['new', 'two', '--no-edit']).stdout);
    expect(repo.handoff(['resume', first]).stdout).toMatch(
      new RegExp(`^Note: this handoff is superseded by ${second}`),
    );
    repo.handoff(['done', second]);
    expect(repo.handoff(['resume', second]).stdout).toMatch(/^Note: this handoff is marked done/);
  });

  it('leaves out commits that only saved handoff records', () => {
    const repo = makeRepo();
    repo.git('checkout', '-q', '-b', 'work');
    repo.handoff(['new', 'one', '--no-edit']);
    repo.commit('Save handoff');
    const resume = repo.handoff(['resume']).stdout;
    expect(resume).toContain('No commits since it was written');
    repo.commit('real work', { 'src/a.ts': 'a\n' });
    const again = repo.handoff(['resume']).stdout;
    expect(again).toContain('1 commit since it was written');
    expect(again).toContain('real work');
    expect(again).not.toContain('Save handoff');
  });
});
