// What the live thread of a session says beyond files and todos: questions the agent put
// to the user that nobody answered, and approaches the user turned down.
import { describe, expect, it } from 'vitest';
import { answers, Extractor, isQuestion, isRejection } from '../src/transcripts/extract.js';
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
    expect(isQuestion('Should voided invoices appear in the export?')).toBe(true);
    expect(isQuestion('Why?')).toBe(false);
    expect(isQuestion('It works now.')).toBe(false);
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
