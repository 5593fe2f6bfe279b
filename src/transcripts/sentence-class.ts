// One class per sentence, from the rules and what the extractor knows when it meets the
// sentence (who said it, the decisions still current, whether a command had just failed, the question
// the agent had asked). Pure; measured on test/fixtures/sentence-corpus.jsonl by
// bench/sentences.js.
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

export function classify(text: string, ctx: SentenceContext): SentenceClass {
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
