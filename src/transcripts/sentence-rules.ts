// The rules that sort a transcript's sentences: a lasting rule the user set, a choice
// with its reason, a question put to the user and whether a reply answers it, a reply
// that turns down what the agent just did. Pure and deterministic; measured against
// labelled sentences of real transcripts (bench/constraints.js).

export const MAX_QUOTE = 400;

// A lasting rule in imperative form: the sentence starts with the rule word.
const CONSTRAINT =
  /^(?:please\s+)?(?:never|always|don['’]t|do not|must(?: not)?|only|prefer|avoid|make sure|keep(?!\s+(?:going|on|it up|at it|working|trying|up|pushing|goin)\b)|no more)\b|^(?:you|we)\s+(?:must|should (?:never|always)|must not|shouldn['’]t|should not)\b/i;
// A choice with its reason: both halves must be there.
const CHOICE =
  /\b(?:decided to|decide to|going with|went with|opted (?:to|for)|chose|choosing|switched to|settled on)\b|\b(?:i['’]ll|we['’]ll|i will|we will|let['’]s|we should|i['’]m going to)\b(?:[^.]|\.(?!\s)){0,120}?\b(?:use|switch|catch|keep|go with|mock|replace|store|move|drop|stop|remove|adopt|write)\b/i;
const REASON = /\b(?:because|since|so that|instead of|rather than|to avoid|as it|which (?:keeps|avoids|means))\b/i;

// A rule the user set inside a longer sentence: "..., but don't assume english", "X must never Y".
const CLAUSE = /[,;:.!]\s+|\s+but\s+|\s+and then\s+/i;
const LEAD = /^(?:no|but|and|also|so|just|ok(?:ay)?|please)\b[,\s]*/i;
const MODAL = /\b(?:must|shall)\s+(?:never|not|always)\b/i;
export const isConstraint = (sentence: string) =>
  sentence.length <= MAX_QUOTE &&
  !sentence.endsWith('?') &&
  (MODAL.test(sentence) || sentence.split(CLAUSE).some((clause) => CONSTRAINT.test(clause.replace(LEAD, ''))));
export const isDecision = (sentence: string) =>
  sentence.length <= MAX_QUOTE && CHOICE.test(sentence) && REASON.test(sentence);
// A question put to the user: a short sentence ending in '?', addressed to them or asking them to choose.
const ASKS =
  /^(?:should|shall|do you|did you|would you|could you|can you|are you|is it|is that|which|what|where|when|how|want me|may i|does|do we|are we|is the|are the)\b|\b(?:you|your|prefer|want)\b/i;
// Offers and greetings ("How can I help you today?") ask nothing about the work.
const OFFER =
  /\b(?:help(?: you)?|assist you|today|dive deeper|anything else|specific area|something specific|else i can)\b/i;
export const isQuestion = (sentence: string) =>
  sentence.endsWith('?') &&
  sentence.length <= MAX_QUOTE &&
  sentence.length >= 12 &&
  ASKS.test(sentence) &&
  !OFFER.test(sentence);

const STOP = new Set([
  'the',
  'and',
  'you',
  'for',
  'are',
  'not',
  'but',
  'can',
  'any',
  'all',
  'one',
  'its',
  'was',
  'has',
  'had',
  'did',
  'how',
  'why',
  'who',
  'yes',
  'now',
  'too',
  'use',
  'should',
  'would',
  'could',
  'there',
  'their',
  'about',
  'which',
  'where',
  'when',
  'what',
  'with',
  'that',
  'this',
  'these',
  'those',
  'from',
  'have',
  'will',
  'your',
  'them',
  'then',
  'than',
  'into',
  'also',
  'just',
  'like',
  'want',
  'does',
  'make',
  'sure',
]);
const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []).filter((w) => !STOP.has(w)));

/** Whether a user turn answers a question: a yes/no reply, or one that takes up a word of it. */
export function answers(reply: string, question: string): boolean {
  if (
    /^\s*(?:yes|no|yeah|yep|nope|sure|correct|right|exactly|ok(?:ay)?,? (?:so|but|let)|option|the (?:first|second))\b/i.test(
      reply,
    )
  )
    return true;
  const asked = words(question);
  for (const w of words(reply)) if (asked.has(w)) return true;
  return false;
}

// A reply that turns down what the agent just did, at the start of the user's turn.
const REJECTS =
  /^(?:no|nope|nah)\b[,.!;:]?\s+(?:that|this|it|don['’]t|do not|not|you|we|i|revert|undo|stop)\b|^(?:that|this|it)\s+(?:didn['’]t|did not|doesn['’]t|does not)\s+work\b|^(?:please\s+)?(?:revert|undo|roll back)\s+(?:that|this|it|the|your)\b|^wrong approach\b/i;
export const isRejection = (text: string) => text.length <= MAX_QUOTE * 4 && REJECTS.test(text.trim());
