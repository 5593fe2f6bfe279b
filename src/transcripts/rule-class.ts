// The rules' verdict on one sentence (decision, reversal, abandoned, question, answer,
// constraint, none) from their wording and what the extractor knows at that point (speaker,
// an earlier decision, a failing command, the question asked). Pure. The learned model
// (sentence-class.ts) reads this verdict as one of its features.
import { isAbandoned, isChoice, reversed } from './choice-rules.js';
import { answers, isConstraint, isOpenQuestion, isRejection } from './sentence-rules.js';

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
  /** Decisions still current when the sentence is said, oldest first. */
  earlier?: readonly string[];
  /** A command had failed since the speaker last wrote. */
  afterFailure?: boolean;
  /** The question the agent asked before this user turn. */
  question?: string;
}

export function ruleClass(text: string, ctx: SentenceContext): SentenceClass {
  const user = ctx.speaker === 'user';
  if (user && ctx.question && answers(text, ctx.question)) return 'answer';
  // Right after a failure, dropping something gives up an approach; otherwise, with an
  // earlier decision standing, it replaces that decision.
  if (!user && ctx.afterFailure && isAbandoned(text, true)) return 'abandoned';
  if (reversed(text, ctx.earlier ?? []).length > 0) return 'reversal';
  if (user && isRejection(text)) return 'abandoned';
  if (!user && isAbandoned(text, false)) return 'abandoned';
  if (user && isConstraint(text)) return 'constraint';
  if (isChoice(text)) return 'decision';
  if (isOpenQuestion(text, ctx.speaker)) return 'question';
  return 'none';
}
