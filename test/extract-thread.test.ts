// What the live thread of a session says beyond files and todos: questions the agent put
// to the user that nobody answered, and approaches the user turned down.
import { describe, expect, it } from 'vitest';
import { answers, Extractor, isOpenQuestion, isRejection } from '../src/transcripts/extract.js';
import type { TranscriptEvent } from '../src/transcripts/events.js';

const run = (events: TranscriptEvent[]) => {
  const x = new Extractor('claude-code');
  for (const e of events) x.add(e);
  return x.result();
};
const user = (text: string, line: number): TranscriptEvent => ({ kind: 'user', text, line });
const agent = (text: string, line: number): TranscriptEvent => ({ kind: 'assistant', text, line });
const tool = (line: number): TranscriptEvent => ({ kind: 'tool-call', name: 'Edit', input: {}, line });

describe('questions the agent asked', () => {
  it('keeps a question the next user turn does not take up, and drops one it answers', () => {
    const ex = run([
      agent('Should voided invoices appear in the export?', 1),
      user('Keep going.', 2),
      agent('Which date format do you want, ISO or US?', 3),
      user('ISO dates, please.', 4),
      agent('Do you want me to add a test as well?', 5),
      user('yes', 6),
    ]);
    expect(ex.questions.map((q) => q.text)).toEqual(['Should voided invoices appear in the export?']);
  });

  it('a question the agent went on working past was not put to the user; one left at the end is open', () => {
    const ex = run([agent('What does this helper do?', 1), tool(2), agent('Should the export be zipped?', 3)]);
    expect(ex.questions.map((q) => q.text)).toEqual(['Should the export be zipped?']);
  });

  it('recognises questions and answers by rule', () => {
    expect(isOpenQuestion('Should voided invoices appear in the export?', 'assistant')).toBe(true);
    expect(isOpenQuestion('Why?', 'assistant')).toBe(false);
    expect(isOpenQuestion('It works now.', 'assistant')).toBe(false);
    expect(answers('Only the paid ones', 'Should voided or paid invoices appear?')).toBe(true);
    expect(answers('Keep going.', 'Should voided invoices appear in the export?')).toBe(false);
  });
});

describe('approaches the user turned down', () => {
  it('keeps a rejection that follows what the agent did, not a plain "no" answer', () => {
    const ex = run([
      tool(1),
      user("no, don't mock completion. mock the httpx library instead.", 2),
      agent('Should I keep the old name?', 3),
      user('no, rename it', 4),
    ]);
    expect(ex.rejections.map((r) => r.text)).toEqual(["no, don't mock completion. mock the httpx library instead."]);
    expect(isRejection("that didn't work, try the other way")).toBe(true);
    expect(isRejection('Revert that change.')).toBe(true);
    expect(isRejection('nothing else to add')).toBe(false);
  });
});

describe('approaches the agent gave up, and its changes of plan', () => {
  const shell = (command: string, exitCode: number, line: number): TranscriptEvent => ({
    kind: 'shell',
    command,
    exitCode,
    line,
  });

  it('keeps what the agent says it drops right after a failing command, not a plain next step', () => {
    const ex = run([
      shell('npm test', 1, 1),
      agent('Mocking the clock this way is a dead end. Let me look at the scheduler.', 2),
      shell('npm test', 1, 3),
      agent('The failing assertion compares with the old message; updating the expected string.', 4),
      shell('npm run build', 0, 5),
      agent('I tried the streaming parser, but it mangles multibyte characters, so I dropped it.', 6),
    ]);
    expect(ex.abandoned.map((a) => a.text)).toEqual([
      'Mocking the clock this way is a dead end.',
      'I tried the streaming parser, but it mangles multibyte characters, so I dropped it.',
    ]);
  });

  it('a failing command read through its result counts too, and only for the next message', () => {
    const ex = run([
      { kind: 'shell', command: 'node scripts/sync.js', id: 'c1', line: 1 },
      { kind: 'tool-result', id: 'c1', isError: true, line: 2 },
      agent('Not viable: the API has no batch endpoint.', 3),
      agent('That is a dead end for the report, not for the sync.', 4),
    ]);
    expect(ex.abandoned.map((a) => a.text)).toEqual(['Not viable: the API has no batch endpoint.']);
  });

  it('takes decisions worded without a reason, the user’s too, and a change of plan against an earlier one', () => {
    const ex = run([
      agent('**Decision:** the CLI reads config from `.toolrc.json` only.', 1),
      user('let’s go with pnpm workspaces', 2),
      agent('I decided to look at the lockfile first.', 3),
      agent('Back to npm: moving off pnpm, it broke the lockfile in CI.', 4),
    ]);
    expect(ex.decisions.map((d) => d.text)).toEqual([
      '**Decision:** the CLI reads config from `.toolrc.json` only.',
      'let’s go with pnpm workspaces',
      'Back to npm: moving off pnpm, it broke the lockfile in CI.',
    ]);
  });

  it('asks without a question mark, and quotes the sentence of a reply that takes the work back', () => {
    const ex = run([
      agent('Not sure whether the importer may delete rows it no longer sees; let me know.', 1),
      tool(2),
      agent('Done.', 3),
      user('Looks fine. Actually, undo that, the old layout was better.', 4),
    ]);
    expect(ex.questions).toEqual([]);
    expect(ex.rejections.map((r) => r.text)).toEqual(['Actually, undo that, the old layout was better.']);
    const open = run([agent('Unclear to me whether the admin page needs the same login; your call.', 1)]);
    expect(open.questions.map((q) => q.text)).toEqual([
      'Unclear to me whether the admin page needs the same login; your call.',
    ]);
  });
});
