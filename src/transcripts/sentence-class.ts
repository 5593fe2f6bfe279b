// One class per sentence, from the rules and what the extractor knows when it meets the
// sentence (who said it, an earlier decision, a command that had just failed, the question
// the agent had asked). Pure; measured on test/fixtures/sentence-corpus.jsonl by
// bench/sentences.js.
import { answers, isConstraint, isDecision, isQuestion, isRejection } from './sentence-rules.js';
import { replacedSubjects } from '../handoff/decisions.js';

export type SentenceClass = 'decision' | 'reversal' | 'abandoned' | 'question' | 'answer' | 'constraint' | 'none';
export const CLASSES: readonly SentenceClass[] = [
  'decision',
  'reversal',
  'abandoned',
  'question',
  'answer',
  'constraint',
  'none',
];

export interface SentenceContext {
  speaker: 'user' | 'assistant';
  /** An earlier decision still current. */
  earlier?: string;
  /** The command that had just failed. */
  failed?: string;
  /** The question the agent asked before this user turn. */
  question?: string;
}

const fold = (t: string) => ` ${t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;

export function classify(text: string, ctx: SentenceContext): SentenceClass {
  if (ctx.speaker === 'user') {
    if (ctx.question && answers(text, ctx.question)) return 'answer';
    if (isRejection(text)) return 'abandoned';
    if (isConstraint(text)) return 'constraint';
    return 'none';
  }
  if (isDecision(text)) {
    const earlier = ctx.earlier ? fold(ctx.earlier) : '';
    if (earlier && replacedSubjects(text).some((s) => earlier.includes(` ${s} `))) return 'reversal';
    return 'decision';
  }
  if (isQuestion(text)) return 'question';
  return 'none';
}
