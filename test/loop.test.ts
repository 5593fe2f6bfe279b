// The core loop as a user runs it: init, pin, new, resume, list, show, done.
import { describe, expect, it } from 'vitest';
import { makeRepo, normalise, runHandoff, tempDir } from './helpers.js';

describe('the core loop through the built CLI', () => {
  it('prints its version and help', () => {
    const dir = tempDir();
    const version = runHandoff(dir, ['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^handoff \d+\.\d+\.\d+\n$/);
    const help = runHandoff(dir, ['--help']);
    expect(help.code).toBe(0);
    for (const command of ['init', 'new', 'resume', 'pin', 'pins', 'unpin', 'list', 'show', 'done'])
      expect(help.stdout).toContain(command);
    const sub = runHandoff(dir, ['new', '--help']);
    expect(sub.stdout).toContain('--since');
  });

  it('init, pin, new, resume, done', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.read('.handoff/config.yml')).toContain('# default_branch');
    const again = repo.handoff(['init']);
    expect(again.stdout).toContain('already initialized');

    const pin = repo.handoff(['pin', 'never touch src/auth']);
    expect(pin.code).toBe(0);
    expect(repo.files('.handoff/pins')).toHaveLength(1);

    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('add the teams model', { 'src/teams.ts': 'export const teams = 1;\n' });
    repo.write('src/teams.ts', 'export const teams = 2;\nexport const more = 3;\n');
    repo.write('test/teams.test.ts', 'it();\n');
    const made = repo.handoff(['new', 'now implement this for teams']);
    expect(made.stderr).toBe('handoff: 2 files and 1 commit since ' + made.stderr.match(/since (\w+)/)![1] + '\n');
    expect(made.code).toBe(0);
    const file = made.stdout.trim();
    expect(file).toMatch(/^\.handoff\/handoffs\/\d{4}-\d{2}\/\d{2}\/[0-9a-z]{26}\.md$/);
    const text = repo.read(file);
    expect(text).toContain('goal: "now implement this for teams"');
    expect(text).toContain('branch: "feature"');
    expect(text).toContain('- add the teams model (');
    expect(text).toMatch(
      /- path: "src\/teams.ts"\n {4}change: "added"\n {4}insertions: 2\n {4}deletions: 0\n {4}state: "unstaged"/,
    );
    expect(text).toContain('### Tests\n\n- `test/teams.test.ts` (added, untracked)');

    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    const prompt = resume.stdout;
    const order = [
      'Pinned constraints',
      'never touch src/auth',
      '## Goal',
      '## Completed',
      '## Files',
      '## Since the handoff',
    ];
    const positions = order.map((s) => prompt.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).toContain('No commits since it was written');

    const json = JSON.parse(repo.handoff(['resume', '--json']).stdout);
    expect(json.prompt).toBe(prompt);
    expect(json.pins[0].text).toBe('never touch src/auth');

    const list = repo.handoff(['list', '--json']);
    expect(JSON.parse(list.stdout).handoffs).toHaveLength(1);
    const done = repo.handoff(['done']);
    expect(done.code).toBe(0);
    expect(repo.read(file)).toContain('status: "done"\n');
    expect(repo.read(file)).toMatch(/\nfinished: "\d{4}-/);
    // With the handoff done, the pins still reach the next session.
    const pinsOnly = repo.handoff(['resume']);
    expect(pinsOnly.code).toBe(0);
    expect(pinsOnly.stdout).toContain('never touch src/auth');
    expect(pinsOnly.stdout).not.toContain('## Goal');
  });

  it('a second handoff continues the first: parent, superseded, carried next steps', () => {
    const repo = makeRepo();
    repo.git('checkout', '-q', '-b', 'work');
    repo.commit('one', { 'a.ts': '1\n' });
    const body =
      '## Goal\n\nfirst\n\n## Next steps\n\n- [x] finished thing\n- write the docs\n- [ ] add the index\n\n## Open questions\n\n- which database?\n\n## Notes by a person\n\nkeep me\n';
    repo.write('body.md', body);
    const first = repo.handoff(['new', 'first', '-F', 'body.md']).stdout.trim();
    // The sections written are kept as written; the draft's others (the commit, the files) join them.
    for (const part of body.split(/(?=^## )/m)) expect(repo.read(first)).toContain(part.trimEnd());
    expect(repo.read(first)).toMatch(/## Completed\n\n- one \([0-9a-f]{7}\)/);
    repo.commit('two', { 'b.ts': '2\n' });
    const second = repo.handoff(['new', 'second']);
    expect(second.stderr).toContain('is now superseded by this one');
    const secondText = repo.read(second.stdout.trim());
    const firstId = first.match(/([0-9a-z]{26})/)![1];
    expect(secondText).toContain(`parent: "${firstId}"`);
    const short = firstId!.slice(0, 12);
    expect(secondText).toContain(
      `## Next steps\n\n- write the docs (handoff ${short})\n- add the index (handoff ${short})\n`,
    );
    expect(secondText).toContain(`## Open questions\n\n- which database? (handoff ${short})\n`);
    // A checked item is done: it leaves Next steps for Completed.
    expect(secondText).toMatch(/## Completed\n[^#]*- two \([0-9a-f]{7}\)/);
    expect(secondText).toMatch(/## Completed\n[^#]*- finished thing \(handoff /);
    expect(secondText.slice(secondText.indexOf('## Next steps'))).not.toContain('finished thing');
    // Files are counted from the parent's head: only b.ts.
    expect(secondText).toContain('path: "b.ts"');
    expect(secondText).not.toContain('path: "a.ts"');
    const firstText = repo.read(first);
    expect(firstText).toContain('status: "superseded"');
    expect(firstText).toContain('## Notes by a person\n\nkeep me\n');
    expect(normalise(repo.handoff(['list']).stdout)).toMatch(/open .* work {2}second\n.*superseded .* work {2}first\n/);
  });

  it('show prints the file and --json its parts', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'look at me']).stdout.trim();
    const id = file.match(/([0-9a-z]{26})/)![1]!;
    const shown = repo.handoff(['show', id.slice(0, 10)]);
    expect(shown.stdout).toBe(repo.read(file));
    const json = JSON.parse(repo.handoff(['show', id, '--json']).stdout);
    expect(json.goal).toBe('look at me');
    expect(json.sections.map((s: { title: string }) => s.title)).toEqual([
      'Goal',
      'Completed',
      'Current state',
      'In progress',
      'Next steps',
      'Open questions',
      'Decisions',
      'Tried and abandoned',
      'References',
    ]);
  });
});
