// Two handoffs from two sessions, through the built CLI: a decision worded without a reason,
// an approach the agent gave up right after a failing command, a question asked without a
// question mark, and, in the next session, a change of plan worded with a verb the old
// phrasing rule did not know. Each must land in its section and reach the resume prompt.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantText, result, tool, user } from './claude-lines.js';
import { makeRepo, tempDir } from './helpers.js';
import { Extractor } from '../src/transcripts/extract.js';

function session(n: number, lines: string[]): string {
  const file = path.join(tempDir(), `session-${n}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const section = (text: string, title: string) => {
  const start = text.indexOf(`## ${title}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 4);
  return text.slice(start, end < 0 ? undefined : end);
};

describe('choices, abandoned approaches and open questions across two handoffs', () => {
  it('drafts each into its section and marks the decision the next session reverses', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const e = { cwd: repo.dir };

    repo.write('src/import.ts', 'export const i = 1;\n');
    const s1 = session(1, [
      user(e, 'Build the invoice importer.'),
      assistantText(e, '**Decision:** the importer reads CSV only; no spreadsheets.'),
      tool(e, 'Bash', { command: 'npm test' }, 't1'),
      result(e, 't1', true, 'FAIL test/clock.test.ts'),
      assistantText(e, 'Mocking the clock this way is a dead end. I will pass the time in as a parameter.'),
      tool(e, 'Bash', { command: 'npm test' }, 't2'),
      result(e, 't2', false),
      assistantText(e, 'Not sure whether archived invoices belong in the import; let me know.'),
    ]);
    expect(repo.handoff(['new', 'invoice importer', '--from', s1, '--no-edit']).code).toBe(0);
    repo.commit('Importer reads CSV');

    const first = repo.handoff(['resume']).stdout;
    expect(section(first, 'Decisions')).toContain('the importer reads CSV only; no spreadsheets.');
    expect(section(first, 'Tried and abandoned')).toContain(
      'The agent gave up an approach: "Mocking the clock this way is a dead end."',
    );
    expect(section(first, 'Open questions')).toContain(
      'Not sure whether archived invoices belong in the import; let me know.',
    );

    repo.write('src/sheet.ts', 'export const s = 1;\n');
    const s2 = session(2, [
      user(e, 'Keep going.'),
      assistantText(e, 'Scrap the CSV-only plan: the importer takes spreadsheets as well, since customers send both.'),
    ]);
    const second = repo.handoff(['new', 'invoice importer', '--from', s2, '--no-edit']);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/1 earlier decision marked superseded/);

    const prompt = repo.handoff(['resume']).stdout;
    const decisions = section(prompt, 'Decisions');
    expect(decisions).toContain('Scrap the CSV-only plan');
    expect(decisions).not.toContain('the importer reads CSV only; no spreadsheets.');
    expect(decisions).toMatch(/Superseded, no longer current: D1 \(by D2\)/);
    // What was given up and what is still open carry over to the next link.
    expect(section(prompt, 'Tried and abandoned')).toContain('Mocking the clock this way is a dead end.');
    expect(section(prompt, 'Open questions')).toContain('Not sure whether archived invoices belong in the import');
  });

  it('marks superseded a decision of the earlier handoff that the next session reverses in words no phrasing rule knows', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const e = { cwd: repo.dir };
    repo.write('src/sessions.ts', 'export const store = "redis";\n');
    const s1 = session(1, [
      user(e, 'Add server-side sessions.'),
      assistantText(e, 'We will keep the sessions in Redis, since it is already deployed.'),
    ]);
    expect(repo.handoff(['new', 'server-side sessions', '--from', s1, '--no-edit']).code).toBe(0);
    repo.commit('Sessions in Redis');
    expect(section(repo.handoff(['resume']).stdout, 'Decisions')).toContain('D1: "We will keep the sessions in Redis');

    // No "instead of", "drop", "switch from" or "replace": only the parent's decision, which the
    // extraction now knows, makes this sentence a reversal of it.
    repo.write('src/sessions.ts', 'export const store = "postgres";\n');
    const s2 = session(2, [
      user(e, 'Keep going.'),
      assistantText(e, 'On reflection the sessions belong in Postgres; Redis is one more service to run.'),
    ]);
    const second = repo.handoff(['new', 'server-side sessions', '--from', s2, '--no-edit']);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/1 earlier decision marked superseded/);

    const decisions = section(repo.handoff(['resume']).stdout, 'Decisions');
    expect(decisions).toContain('D2: "On reflection the sessions belong in Postgres');
    expect(decisions).not.toContain('D1: "We will keep the sessions in Redis');
    expect(decisions).toMatch(/Superseded, no longer current: D1 \(by D2\)/);
    // The marker did its work in the draft; the next hop carries the provenance without it.
    const third = repo.handoff(['new', 'server-side sessions', '--no-edit']);
    expect(third.code).toBe(0);
    const carried = section(repo.handoff(['resume']).stdout, 'Decisions');
    expect(carried).toMatch(/D2: "On reflection the sessions belong in Postgres[^\n]*transcript line \d+\)/);
    expect(carried).not.toContain('supersedes D1');
  });

  it('names the one earlier decision a reversal turns from, and none for a decision that only shares its words', () => {
    const x = new Extractor('claude-code', [
      { id: 'D1', text: "We'll use engine1 for stage 1, because it fits step 1." },
      { id: 'D2', text: "We'll use engine2 for stage 2, because it fits step 2." },
    ]);
    x.add({ kind: 'assistant', text: "We'll use turbo3 instead of engine2, because engine2 was too slow.", line: 1 });
    x.add({ kind: 'assistant', text: "We'll use engine3 for stage 3, because it fits step 3.", line: 2 });
    const decisions = x.result().decisions;
    expect(decisions.map((d) => [d.line, d.supersedes])).toEqual([
      [1, ['D2']],
      [2, undefined],
    ]);
  });
});
