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

/** What each rule says of a sentence; computed once, both for the rules' class and as the model's features. */
export interface Verdicts {
  answers: boolean;
  /** Given up: right after a failure the rule reads more cues (isAbandoned's second argument). */
  abandoned: boolean;
  reversed: boolean;
  rejection: boolean;
  constraint: boolean;
  choice: boolean;
  question: boolean;
}

export function verdicts(text: string, ctx: SentenceContext): Verdicts {
  return {
    answers: ctx.question !== undefined && ctx.question !== '' && answers(text, ctx.question),
    abandoned: isAbandoned(text, ctx.afterFailure === true),
    reversed: reversed(text, ctx.earlier ?? []).length > 0,
    rejection: isRejection(text),
    constraint: isConstraint(text),
    choice: isChoice(text),
    question: isOpenQuestion(text, ctx.speaker),
  };
}

/** The rules' class, from their verdicts, in the order the rules settle a sentence that two of them claim. */
export function classOf(v: Verdicts, ctx: SentenceContext): SentenceClass {
  const user = ctx.speaker === 'user';
  if (user && v.answers) return 'answer';
  // Right after a failure, dropping something gives up an approach; otherwise, with an
  // earlier decision standing, it replaces that decision.
  if (!user && ctx.afterFailure && v.abandoned) return 'abandoned';
  if (v.reversed) return 'reversal';
  if (user && v.rejection) return 'abandoned';
  if (!user && v.abandoned) return 'abandoned';
  if (user && v.constraint) return 'constraint';
  if (v.choice) return 'decision';
  if (v.question) return 'question';
  return 'none';
}

export const ruleClass = (text: string, ctx: SentenceContext): SentenceClass => classOf(verdicts(text, ctx), ctx);
