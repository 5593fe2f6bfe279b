// The rules that sort a transcript's sentences: a lasting rule the user set, a question put
// to the other side and whether a reply answers it, a reply that turns down what the agent
// just did (choices are in choice-rules.ts). Pure and deterministic; measured on labelled
// sentences by bench/sentences.js and bench/constraints.js.

export const MAX_QUOTE = 400;

/** A turn's sentences, as the rules read them: code fences, quotes, tables and indented code left out, list markers stripped. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const raw of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || /^\s*(>|\|| {4})/.test(raw)) continue;
    const line = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z"'`(])/)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

// A lasting rule in imperative form: the sentence starts with the rule word.
const CONSTRAINT =
  /^(?:please\s+)?(?:never|always|don['’]t|do not|must(?: not)?|only|prefer|avoid|make sure|keep(?!\s+(?:going|on|it up|at it|working|trying|up|pushing|goin)\b)|no more)\b|^(?:you|we)\s+(?:must|should (?:never|always)|must not|shouldn['’]t|should not)\b/i;
// A rule the user set inside a longer sentence: "..., but don't assume english", "X must never Y".
const CLAUSE = /[,;:.!]\s+|\s+but\s+|\s+and then\s+/i;
const LEAD = /^(?:no|but|and|also|so|just|ok(?:ay)?|please)\b[,\s]*/i;
const MODAL = /\b(?:must|shall)\s+(?:never|not|always|stay|run|be|keep)\b/i;
// A standing rule announced as such: "From now on, ...", "One rule: ...".
const STANDING = /^(?:from now on|going forward|one rule|(?:a |the )?rule|remember)\b[,:]?\s/i;
// "no new dependencies without asking", "no breaking changes": a ban, not a "no, ..." reply.
const BAN = /^no\s+(?!(?:problem|worries|idea|need|thanks|luck|way|wait|more|rush|hurry)\b)[a-z][\w-]*\s+[a-z]/i;
export const isConstraint = (text: string) => {
  const sentence = text.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '');
  return (
    sentence.length <= MAX_QUOTE &&
    !sentence.endsWith('?') &&
    (MODAL.test(sentence) ||
      STANDING.test(sentence) ||
      sentence.split(CLAUSE).some((clause) => CONSTRAINT.test(clause.replace(LEAD, '')) || BAN.test(clause)))
  );
};
// Offers and greetings ("How can I help you today?") ask nothing about the work.
const OFFER =
  /\b(?:help(?: you)?|assist you|today|dive deeper|anything else|specific area|something specific|else i can|particular (?:coding )?task|other changes|like to work on)\b/i;

// The agent thinking aloud, not asking: "Maybe the cache isn't cleared?", "Wait, is this true?".
const SELF = /^(?:maybe|perhaps|so|why|wait|hmm|actually|what if|or is it|i wonder)\b|\bi wonder\b/i;
// A question without its mark: the speaker says a choice is open and waits for the other side.
const OPEN =
  /\b(?:not sure (?:whether|if)|unclear (?:to me )?(?:whether|if)|undecided|open question|question for you|needs? your (?:input|decision|call)|your (?:call|decision)|let me know (?:whether|if|which)|tell me (?:which|whether)|please (?:confirm|advise|clarify)|can you confirm|i need to know|tbd\b|still deciding)/i;
// What the user asks the agent to deliberate on, as opposed to asking it for a fact or an action.
const DELIBERATE =
  /\b(?:should|need|needs|worth|whether|overkill|worried|even|decides?|anyone|thoughts|undecided|open question|wonder|could we|how (?:should|can|do) we)\b/i;

// The rules read English; a question in another language, or in code, is left alone.
const ENGLISH =
  /\b(?:should|shall|do|does|did|is|are|can|could|would|will|which|what|where|when|how|who|ok|or|too|want|need|you|we|i|may)\b/i;
const CODE = /[{}=]|":\s*"|\(\)/;

/** An open question of the work, by either side, with or without a question mark. */
export function isOpenQuestion(sentence: string, speaker: 'user' | 'assistant'): boolean {
  const s = sentence
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
    .replace(/\*\*/g, '')
    .trim();
  if (s.length > MAX_QUOTE || s.length < 8) return false;
  const marked = s.includes('?');
  if (speaker === 'assistant') {
    if (OFFER.test(s) || CODE.test(s)) return false;
    if (marked) return !SELF.test(s) && ENGLISH.test(s);
    return OPEN.test(s);
  }
  if (OPEN.test(s) || /\bi wonder\b/i.test(s)) return true;
  const asked = s.slice(0, s.lastIndexOf('?'));
  return marked && DELIBERATE.test(asked) && !/^(?:can|could|did|would|will) you\b/i.test(s);
}

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

// A reply that puts the question off or turns to something else answers nothing.
const ASIDE =
  /^(?:wait|hold on|before (?:that|anything)|unrelated|by the way|btw|hmm|let me think|let['’]s pause|thanks|thank you|good catch|lgtm|looks good)\b|^(?:later|not now)\b|\b(?:i['’]ll ask|get back to you)\b|\?\s*$/i;
// Taking up the agent's offer: "go ahead", "main is fine".
const ACCEPT = /\b(?:is fine|is ok(?:ay)?|sounds good|go ahead|do it|works for me)\b/i;

/** Whether a user turn answers a question: a yes/no reply, or one that takes up a word of it. */
export function answers(reply: string, question: string): boolean {
  if (
    /^\s*(?:yes|no|yeah|yep|nope|sure|correct|right|exactly|ok(?:ay)?,? (?:so|but|let)|option|the (?:first|second))\b/i.test(
      reply,
    )
  )
    return true;
  if (ASIDE.test(reply.trim())) return false;
  if (ACCEPT.test(reply)) return true;
  const asked = words(question);
  for (const w of words(reply)) if (asked.has(w)) return true;
  return false;
}

// A reply that turns down what the agent just did, at the start of the user's turn, or asks
// to take it back anywhere in a short reply.
const REJECTS =
  /^(?:(?:ugh|hmm|argh|oh|well|wait)[,.!]?\s+)?(?:no|nope|nah)\b[,.!;:]?\s+(?:that|this|it|don['’]t|do not|not|you|we|i|revert|undo|stop|the)\b|^(?:that|this|it)\s+(?:didn['’]t|did not|doesn['’]t|does not)\s+work\b|^(?:please\s+)?(?:revert|undo|roll back)\s+(?:that|this|it|the|your)\b|^wrong approach\b|^stop with\b/i;
const TAKE_BACK =
  /\b(?:undo (?:that|it|this)|revert (?:that|it|this|the)|roll (?:that|it) back|i undid|remo?e?v(?:e)? (?:that|this)|abandon (?:the|that|this)|drop the \w+ (?:attempt|approach|idea|hack)|(?:make|put) it (?:like (?:that|before)|back)(?: again)?|isn['’]t going anywhere|didn['’]t fix it|(?:should|must) stay as (?:is|it was)|put (?:the old \w+|it|that|them) back|take (?:it|that) out)\b|^(?:forget|drop|scrap|ditch|skip) (?:the|that|about)\b/i;
export const isRejection = (text: string) => {
  const t = text.trim();
  return t.length <= MAX_QUOTE * 4 && (REJECTS.test(t) || (t.length <= MAX_QUOTE && TAKE_BACK.test(t)));
};
