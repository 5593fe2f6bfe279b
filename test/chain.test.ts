// The story of the chain: four sessions on one task, each handed off with
// `handoff new --from <transcript>` and a commit in between. The fourth resume prompt
// must still carry every live fact, once, with nothing stale shown as current.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantText, result, tool, user } from './claude-lines.js';
import { handoffFile, makeRepo, tempDir } from './helpers.js';

type Todo = [string, 'pending' | 'in_progress' | 'completed'];
const todos = (e: { cwd: string }, list: Todo[], id: string) =>
  tool(e, 'TodoWrite', { todos: list.map(([content, status]) => ({ content, status, activeForm: content })) }, id);
const edit = (e: { cwd: string }, file: string, id: string) => [
  tool(e, 'Edit', { file_path: path.join(e.cwd, file), old_string: 'a', new_string: 'b' }, id),
  result(e, id, false),
];

function session(n: number, lines: string[]): string {
  const file = path.join(tempDir(), `session-${n}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const countOf = (text: string, needle: string) => text.split(needle).length - 1;
const section = (prompt: string, title: string) => {
  const start = prompt.indexOf(`## ${title}\n`);
  if (start < 0) return '';
  const end = prompt.indexOf('\n## ', start + 4);
  return prompt.slice(start, end < 0 ? undefined : end);
};

describe('a chain of four handoffs', () => {
  it('keeps decisions, todo state, earlier files and questions, and drops chatter', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.git('checkout', '-q', '-b', 'export');
    const e = { cwd: repo.dir };

    // Session 1: the goal, a constraint, a first decision, the plan.
    repo.write('src/export.ts', 'export const e = 1;\n');
    const s1 = session(1, [
      user(e, 'Build the CSV export of invoices. Never add new dependencies without asking.'),
      assistantText(
        e,
        "We'll use papaparse for the CSV quoting because it handles every edge case. I'll use OFFSET pagination because it is the simplest.",
      ),
      todos(
        e,
        [
          ['Add the export endpoint', 'in_progress'],
          ['Paginate invoice list', 'pending'],
          ['Write the CSV tests', 'pending'],
        ],
        't1',
      ),
      ...edit(e, 'src/export.ts', 't2'),
    ]);
    expect(repo.handoff(['new', 'CSV export', '--from', s1, '--no-edit']).code).toBe(0);
    repo.commit('Add the export endpoint');

    // Session 2: papaparse is dropped; a failed attempt; chatter.
    repo.write('src/csv.ts', 'export const q = 1;\n');
    const s2 = session(2, [
      user(e, 'Keep going.'),
      assistantText(
        e,
        "We'll drop papaparse and write the CSV quoting by hand, because new dependencies are not allowed.",
      ),
      todos(
        e,
        [
          ['Add the export endpoint', 'completed'],
          ['Write the CSV tests', 'in_progress'],
          ['Paginate invoice list', 'pending'],
        ],
        't3',
      ),
      ...edit(e, 'src/csv.ts', 't4'),
      tool(e, 'Bash', { command: 'npm run lint' }, 't5'),
      result(e, 't5', true, 'lint failed'),
    ]);
    expect(repo.handoff(['new', 'CSV export', '--from', s2, '--no-edit']).code).toBe(0);
    repo.commit('Quote CSV by hand');

    // Session 3: keyset instead of OFFSET; a question the user leaves unanswered; compacted twice.
    repo.write('src/paginate.ts', 'export const p = 1;\n');
    const s3 = session(3, [
      user(e, 'Keep going, nearly there.'),
      assistantText(e, 'Should voided invoices appear in the export?'),
      user(e, 'Keep going.'),
      assistantText(e, "I'll use keyset cursors instead of OFFSET, because tables reach 40 million rows."),
      todos(
        e,
        [
          ['Write the CSV tests', 'completed'],
          ['Paginate invoice list', 'in_progress'],
        ],
        't6',
      ),
      ...edit(e, 'src/paginate.ts', 't7'),
    ]);
    const third = repo.handoff(['new', 'CSV export', '--from', s3, '--no-edit']);
    expect(third.stderr).toMatch(/the draft carried \d+ of its open items; 1 earlier decision marked superseded\)/);
    expect(repo.handoff(['new', 'CSV export', '--from', s3, '--no-edit']).code).toBe(0);
    repo.commit('Keyset pagination');

    // Session 4: a new task on top.
    repo.write('src/button.ts', 'export const b = 1;\n');
    const s4 = session(4, [
      user(e, 'Add the download button.'),
      todos(e, [['Add the download button', 'in_progress']], 't8'),
    ]);
    expect(repo.handoff(['new', 'CSV export: download button', '--from', s4, '--no-edit']).code).toBe(0);

    const prompt = repo.handoff(['resume']).stdout;
    if (process.env.CHAIN_DEBUG) writeFileSync(process.env.CHAIN_DEBUG, prompt);
    const decisions = section(prompt, 'Decisions');
    // Both later decisions are current; the ones they replace are not.
    expect(decisions).toContain('drop papaparse and write the CSV quoting by hand');
    expect(decisions).toContain('keyset cursors instead of OFFSET');
    expect(decisions).not.toContain('papaparse for the CSV quoting');
    expect(decisions).not.toContain('OFFSET pagination because it is the simplest');
    expect(decisions).toMatch(/Superseded, no longer current: D1 \(by D3\), D2 \(by D4\)/);
    // Todo state: done is done, the task in progress stays in progress, nothing twice.
    expect(section(prompt, 'Completed')).toContain('Write the CSV tests');
    expect(section(prompt, 'Completed')).toContain('Add the export endpoint (');
    expect(section(prompt, 'Next steps')).not.toContain('Write the CSV tests');
    expect(section(prompt, 'In progress')).toContain('Paginate invoice list');
    expect(section(prompt, 'In progress')).toContain('Add the download button');
    expect(countOf(prompt, 'Paginate invoice list')).toBe(1);
    // Earlier work is still named: files and commits of every link.
    for (const f of ['src/export.ts', 'src/csv.ts', 'src/paginate.ts', 'src/button.ts'])
      expect(prompt).toContain(`\`${f}\``);
    for (const c of ['Add the export endpoint (', 'Quote CSV by hand (', 'Keyset pagination ('])
      expect(section(prompt, 'Completed')).toContain(c);
    // The user's constraint is offered once; chatter is not a constraint.
    expect(countOf(prompt, 'Never add new dependencies without asking.')).toBe(1);
    expect(prompt).not.toMatch(/Pin candidate[^\n]*Keep going/);
    // The question the agent asked and nobody answered.
    expect(section(prompt, 'Open questions')).toContain('Should voided invoices appear in the export?');
    expect(countOf(prompt, 'Should voided invoices appear in the export?')).toBe(1);
    // The failed attempt is remembered.
    expect(section(prompt, 'Tried and abandoned')).toContain('`npm run lint` failed');
    // Provenance: carried items name the handoff they came from.
    expect(decisions).toMatch(/D3: "We'll drop papaparse[^\n]*\(handoff [0-9a-z]{12}, transcript line 2\)/);
  });
});

describe('starting and repairing a chain on purpose', () => {
  const idOf = (out: string) => out.match(/([0-9a-z]{26})/)![1]!;

  it('new --fresh has no parent and carries nothing; the open handoff stays open', () => {
    const repo = makeRepo();
    repo.write('body.md', '## Goal\n\nfirst\n\n## Next steps\n\n- old step\n');
    const first = idOf(repo.handoff(['new', 'first', '-F', 'body.md']).stdout);
    const fresh = repo.handoff(['new', 'unrelated', '--fresh', '--no-edit']);
    expect(fresh.stderr).toContain(`starting a new chain; ${first} stays open`);
    const text = repo.read(fresh.stdout.trim());
    expect(text).toContain('parent: null');
    expect(text).not.toContain('old step');
    expect(repo.read(handoffFile(first))).toContain('status: "open"');
  });

  it('reopen undoes a new that continued the wrong handoff', () => {
    const repo = makeRepo();
    const first = idOf(repo.handoff(['new', 'first', '--no-edit']).stdout);
    const second = idOf(repo.handoff(['new', 'by mistake', '--no-edit']).stdout);
    const reopened = repo.handoff(['reopen', first.slice(0, 10)]);
    expect(reopened.code).toBe(0);
    expect(reopened.stderr).toContain(`${second} is now superseded by ${first}`);
    const text = repo.read(handoffFile(first));
    expect(text).toContain('status: "open"');
    expect(text).not.toContain('superseded_by');
    expect(repo.handoff(['resume']).stdout).toContain(`(Handoff ${first}`);
    expect(repo.handoff(['reopen', first]).stdout).toContain('already open');
  });
});

describe("a body the user writes, and the branch's own work", () => {
  const idOf = (out: string) => out.match(/([0-9a-z]{26})/)![1]!;

  it('new -F replaces the sections it writes and keeps the carried ones; --replace takes the file alone', () => {
    const repo = makeRepo();
    repo.write(
      'first.md',
      '## Goal\n\nexport\n\n## Next steps\n\n- old step\n\n## Open questions\n\n- Should voided invoices appear?\n\n## Decisions\n\n- D1: keyset cursors, because tables are large\n',
    );
    expect(repo.handoff(['new', 'export', '-F', 'first.md']).code).toBe(0);
    repo.write('second.md', 'Paired with Ana on the form today.\n\n## Next steps\n\n- wire the download button\n');
    const second = repo.handoff(['new', 'export', '-F', 'second.md']);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      'handoff: second.md wrote Next steps; kept from the draft: Goal, Current state, Open questions, Decisions, References (--replace: the file alone)',
    );
    const text = repo.read(second.stdout.trim());
    expect(text).toContain('- wire the download button');
    expect(text).not.toContain('old step');
    expect(text).toMatch(/- Should voided invoices appear\? \(handoff [0-9a-z]{12}\)/);
    expect(text).toMatch(/- D1: keyset cursors, because tables are large \(handoff [0-9a-z]{12}\)/);
    // Text before the first heading is kept and shown.
    const prompt = repo.handoff(['resume']).stdout;
    expect(section(prompt, 'Notes')).toContain('Paired with Ana on the form today.');
    const shown = JSON.parse(repo.handoff(['show', idOf(second.stdout), '--json']).stdout);
    expect(shown.preamble).toBe('Paired with Ana on the form today.');

    repo.write('third.md', 'Only this.\n');
    const third = repo.handoff(['new', 'export', '-F', 'third.md', '--replace']);
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('(the body replaced the draft; nothing was carried)');
    expect(repo.read(third.stdout.trim())).toMatch(/---\nOnly this\.\n$/);
    expect(repo.handoff(['new', 'export', '--replace', '--no-edit']).stderr).toContain('--replace needs a body');
  });

  it("reads a section written twice whole, and shows and carries a section of the writer's own title", () => {
    const repo = makeRepo();
    const first = repo.handoff(['new', 'export', '--no-edit']).stdout.trim();
    // Added by hand below the draft: a second Next steps, and a section the draft never writes.
    repo.write(
      first,
      `${repo.read(first)}\n## Next steps\n\n- a step added below\n\n## Notes for Ana\n\n- the staging key rotates on Fridays\n`,
    );
    const prompt = repo.handoff(['resume']).stdout;
    expect(section(prompt, 'Next steps')).toContain('- a step added below');
    expect(section(prompt, 'Notes')).toContain('### Notes for Ana\n\n- the staging key rotates on Fridays');
    expect(repo.handoff(['roadmap']).code).toBe(0);
    expect(repo.read('.handoff/ROADMAP.md')).toContain('a step added below');
    // The next handoff carries the step as an item, and the section as written.
    repo.write('more.ts', 'more\n');
    const second = repo.read(repo.handoff(['new', 'export, part two', '--no-edit']).stdout.trim());
    expect(second).toMatch(/## Next steps\n\n- a step added below \(handoff [0-9a-z]{12}\)\n/);
    expect(second).toMatch(/\n## Notes for Ana\n\n- the staging key rotates on Fridays\n$/);
    expect(countOf(second, '## Next steps')).toBe(1);
    expect(section(repo.handoff(['resume']).stdout, 'Notes')).toContain('the staging key rotates on Fridays');
  });

  it('after git merge main, lists neither main commits nor main files as the branch work', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.commit('init');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/feature.ts', 'export const f = 1;\n');
    repo.commit('Feature, part one');
    expect(repo.handoff(['new', 'feature', '--no-edit']).code).toBe(0);
    repo.commit('Handoff');
    repo.git('checkout', '-q', 'main');
    repo.write('src/other.ts', 'export const o = 1;\n');
    repo.commit('Work on main');
    repo.git('checkout', '-q', 'feature');
    repo.git('merge', '-q', '--no-edit', 'main');
    repo.write('src/feature.ts', 'export const f = 2;\n');
    repo.commit('Feature, part two');
    repo.write('src/wip.ts', 'export const w = 1;\n');
    const next = repo.handoff(['new', 'feature', '--no-edit']);
    expect(next.code).toBe(0);
    const text = repo.read(next.stdout.trim());
    expect(section(text, 'Completed')).toContain('Feature, part two (');
    expect(text).not.toContain('Work on main');
    expect(text).not.toContain("Merge branch 'main'");
    expect(text).not.toContain('src/other.ts');
    expect(text).toContain('path: "src/feature.ts"');
    expect(text).toContain('path: "src/wip.ts"');
  });

  it('keeps the resume prompt within resume_tokens, counting what it leaves out', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write('.handoff/config.yml', 'resume_tokens: 300\n');
    const decisions = Array.from({ length: 60 }, (_, i) => `- D${i + 1}: decision ${i + 1}, because reason ${i + 1}`);
    repo.write(
      'body.md',
      `## Goal\n\nexport\n\n## In progress\n\n- the task in hand\n\n## Next steps\n\n- the next step\n\n## Decisions\n\n${decisions.join('\n')}\n`,
    );
    const file = repo.handoff(['new', 'export', '-F', 'body.md']).stdout.trim();
    const prompt = repo.handoff(['resume']).stdout;
    expect(section(prompt, 'In progress')).toContain('- the task in hand');
    expect(section(prompt, 'Decisions')).toContain('- D1: decision 1, because reason 1');
    expect(section(prompt, 'Decisions')).not.toContain('D60:');
    expect(section(prompt, 'Decisions')).toMatch(/\n- … \d+ more items in the handoff file\n/);
    expect(section(prompt, 'Next steps')).toContain('- … 1 more item in the handoff file');
    expect(prompt).toContain(`(Handoff ${idOf(file)}, \`${file}\`.`);
    // JSON keeps every part whole: the budget is the prompt's.
    expect(JSON.parse(repo.handoff(['resume', '--json']).stdout).decisions).toContain('D60:');
  });
});
