// Choices in a transcript's sentences, sorted by classes of wording rather than by phrases:
// a decision (a choice verb, a passive "was chosen", a "Decision:" label, or a plan with a
// contrast or a reason), a reversal (a change-of-plan cue that names what it turns from in an
// earlier decision, or points back at it), an approach given up (a failure and a cue of
// dropping it, or a verdict right after a failing command). Pure (the one cache below only
// remembers answers); measured by bench/sentences.js.
import { MAX_QUOTE } from './sentence-rules.js';

/** Markdown list markers and emphasis: the extractor strips the first; both carry no meaning here. */
const plain = (s: string) =>
  s
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
    .replace(/\*\*|__/g, '')
    .replace(/^#{1,6}\s+/, '')
    .trim();

// A label that opens the sentence and names what follows as chosen.
const LABEL =
  /^(?:(?:design |final |my |our )?(?:decision|call|choice|pick)|decided|chosen(?: approach)?|approach(?: chosen)?|(?:the |okay,? |ok,? |so,? )?plan|resolution|going forward|we went with|conclusion|verdict|agreed|settled|final answer|outcome|winner|here['’]s the (?:approach|plan))(?:\s+(?:on|for|about)\s+[^:—–]{1,30})?\s*[:—–]/i;
// Verbs that pick one option: enough on their own.
const PICK =
  /\bit is(?: for [^.]{1,40})?[.!]?$|\b(?:(?<!(?:to|keep) )go(?:ing)? (?:with|for)|went (?:with|for)|stick(?:ing)? with|settled? on|opt(?:ed|ing)? (?:for|to)|decided (?:to|on)|decide to|(?:i|we) (?:chose|choose|picked|pick)|choosing|the (?:choice|decision) is|take the approach|(?:let['’]s|we['’]ll|i['’]ll) (?:do|take|use|try) the [\w\s-]{1,30}? (?:version|option|variant|approach|layout|one)|the (?:cleanest|simplest|safest|best|most robust) (?:option|choice|approach|way) is|we['’]re (?:using|going with|sticking with)|(?:i['’]m|we['’]re|we['’]ll|let['’]s) (?:stick|standardi[sz]e|default)(?:ing)? (?:with|to|on)|standardi[sz]e on|(?:is|seems like) the way to go|makes (?:more |the most )?sense to|(?:is|seems) the (?:right|better|best) (?:call|choice|fit|option)|prefer\s+\S+(?:\s+\S+){0,3}\s+over|(?:we['’]ve |i['’]ve )?(?:landed|agreed) on|i['’]d go with|the plan is to|that['’]s the one|wins (?:on|out)|makes? (?:the )?most sense|makes? more sense|do it (?:your|that|this|my) way|(?:i|we)(?:['’]d)? prefer|(?:i['’]m|we['’]re|i am|we are) (?:standardi[sz]ing|keeping(?! an eye)|sticking|leaning towards|adopting|settling|modell?ing|storing)|(?:that['’]s|this is) what (?:i['’]m|we['’]re) (?:implementing|doing|building)|the one (?:now )?implemented|(?:we|i|the team|they)(?: have| has|['’]ve)? (?:agreed|decided|elected|chosen|chose|opted|settled|picked)|from (?:now|here) on|from now|henceforth)\b|^(?:chose|chosen|picked|went with|opted for|settled on)\b/i;
// "decided to look at the file": a choice of the next step, not of the work.
const STEP = /\bdecided? to (?:look|read|check|see|start|run|try|take|begin|dig|investigate)\b/i;
// A commitment (modal, let's, a future or present "we"/"the X will") to a verb that shapes the work.
const COMMIT =
  /\b(?:i['’]ll|we['’]ll|i will|we will|let['’]s|let us|we should|i['’]m going to|we['’]re going to|i am going to|we are going to|i make|we take|we go|we use|we keep|will be used|will be|goes through|(?:i|we) (?:would|'d) rather)\b(?:[^.;]|\.(?!\s)){0,100}?\b(?:use|using|switch|catch|keep|store|stores|move|drop|stop|remove|adopt|write|render|put|make|implement|take|pin|run|live|ship|return|do(?: that)?|be)\b/i;
// A contrast or a reason turns a commitment into a choice.
const WHY =
  /\b(?:because|since|so that|so (?!far\b)|instead(?: of)?|rather than|to avoid|as it|which (?:keeps|avoids|means|already|gives)|for (?:now|consistency|simplicity)|is enough|suffices|is (?:simpler|faster|safer|cleaner|more)|(?:easier|simpler|cleaner|safer|faster|cheaper|clearer)\b|more (?:simple|appropriate|easy|robust|reliable|readable)|not\s+[\w`'"]+\s*[,.;]?$)|, not\b|;\s*no\b/i;
const PASSIVE =
  /\b(?:was|were|is|has been|have been|will be) (?:chosen|picked|selected|decided|preferred|adopted)\b|\b(?:decided|agreed) that\b/i;
// "When a theme is selected, ...": a condition, not a choice.
const CONDITION =
  /\b(?:when|if|once|after|until|whichever)\b[^,.]{0,40}\b(?:is|are|was|were) (?:chosen|picked|selected)\b/i;

// A commitment of any verb against an alternative: "let's mock httpx instead of completion".
const COMMITTED =
  /\b(?:i['’]ll|we['’]ll|i will|we will|let['’]s|we should|it should|(?:i|we)['’]d rather|i['’]m going to|we['’]re going to)\b/i;
const AGAINST = /\b(?:instead of|rather than)\b|^instead,|\binstead\b(?=[^.]{0,20}$)/i;
// An imperative choice, as a user or a bullet list states one: "Use pino for logging (...)", "instead use tqdm".
const IMPERATIVE =
  /^(?:use|store|keep|prefer|adopt|pick|render|ship)\b[^.;]{2,80}?(?:\(|\bfor\b|\binstead\b|\brather than\b|,\s*not\b)|\binstead,? use\b/i;
// A component's settled future: "the cache key will be the content hash", "going forward the API returns ...".
const SETTLED =
  /^(?:(?:after [^,]{3,40},\s*)?(?:the|our|all|every|each) (?!change)[\w\s`.-]{1,40}? will (?:use|be used|be stored|be|live|carry|stay|go|sit)(?=\s)|(?:is|are) going to be \w+ed\b|(?:going forward|from now on),?\s)/i;
// Giving something a role: "we'll use Exception as a general catch-all".
const ROLE = /\b(?:use|using|treat)\s+\S+\s+as (?:a|an|the)\b/i;

// A change of plan announced as such is a choice even when the decision it replaces is in an
// earlier handoff, out of this session's sight ("Scrap the CSV-only plan: ...").
const NEW_PLAN =
  /\b(?:scratch|scrap) (?:that|the)\b|\bchange of (?:plan|direction|approach)\b|\bchanged my mind\b|\bon second thoughts?\b|\brevers(?:e|ing) course\b|\bwalk(?:ing)? back\b|\brevised decision\b|\bsupersedes D\d/i;

// A description of a change already made ("This change replaces ...", "Updates the assertions ..."),
// or a command typed to the agent ("/drop file"), reports or acts; it does not decide.
const REPORT =
  /^(?:\/[a-z]|(?:this|these|the|that) (?:change|changes|commit|diff|edit|patch|update|fix)\b|(?:it|this) (?:replaces|updates|changes|removes|adds|modifies)\b|(?:updates|replaces|renames|changes|adds|removes|fixes|modifies)\s)/i;

// An edit announced ("I'll modify `main.py` to catch X instead of Y", "Instead, let's update the
// test to ..."): the alternative it turns down is the old code, not an option; git will show it.
const EDIT_NEXT =
  /^(?:(?:instead|ok(?:ay)?|so|now),?\s+)?(?:i['’]ll|let['’]s|let me|we['’]ll|i will|we will|i['’]m going to|i am going to|we['’]re going to)\s+(?:now\s+|just\s+|first\s+|also\s+)?(?:modify|update|edit|adjust|fix|tweak|patch|refactor|make the change|make changes|focus on)\b|^(?:it|this|that) should use\b/i;

export function isChoice(sentence: string): boolean {
  const s = plain(sentence);
  if (s.length > MAX_QUOTE || s.endsWith('?') || STEP.test(s) || REPORT.test(s) || EDIT_NEXT.test(s)) return false;
  return (
    LABEL.test(s) ||
    PICK.test(s) ||
    NEW_PLAN.test(s) ||
    (PASSIVE.test(s) && !CONDITION.test(s)) ||
    IMPERATIVE.test(s) ||
    SETTLED.test(s) ||
    (COMMIT.test(s) && (WHY.test(s) || ROLE.test(s))) ||
    (COMMITTED.test(s) && AGAINST.test(s))
  );
}

// Turning away from what was decided before.
const CHANGE =
  /\b(?:actually|on (?:second thought|reflection)|scratch|scrap|change of (?:plan|approach|direction)|chang(?:e|ed) (?:my mind|the plan)|take that back|reconsider(?:ed)?|after all|never ?mind|forget|no longer|not anymore|no more|instead|rather than|switch(?:ing|ed)?|(?<!fall(?:s|ing)? |fallen |fell )back to|go(?:ing)? back|revert(?:ing|ed)?|revis(?:ed|e)|(?<![/\w])(?<!without )replac(?:e|es|ed|ing)|swap(?:ped|ping|s)?|supersede[sd]?|in favou?r of|moving (?:off|away|back)|moved? (?:back|off|away)|drop(?:ping|ped)?|abandon(?:ing|ed)?|undo(?:ing)?|revers(?:ed|e)|now using|(?:is|are) gone|update:|than move|ditch(?:ed|ing)?|shelv(?:e|ed|ing)|let['’]s not|turns out|walk(?:ing|ed)? back|revers(?:e|ing) course|rescinded|withdrawn|retired|changed the idea|ignore what|on second thoughts|(?:is|are) off)\b|\bout,\s*\S+ in\b|^(?:wait|hmm|actually|hold on)\b[,.]?\s+no\b|~~|→|\bnot\s+[\w`'"]+\s*(?:[,.;]|$)/i;
// Words that point back at the earlier decision as a whole.
const BACK =
  /\b(?:scratch|scrap) (?:that|the)|never ?mind|change of (?:plan|direction|approach)|chang(?:e|ed) (?:my|the) (?:mind|idea|plan)|i take (?:it|that) back|take that back|forget (?:what|that|it)|ignore what (?:i|we) said|reconsidered|on (?:second thoughts?|reflection|further consideration)|rethink(?:ing)?|revised decision|supersedes\b|walk(?:ing|ed)? back|revers(?:e|ing|ed) (?:course|the decision)|u-turn|backtrack(?:ing)?|after all\b|(?:plan|idea) is off|rescinded|withdrawn|no longer the (?:plan|policy|case)|^(?:reversed|revised|correction)\s*:/i;

const stems = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !COMMON.has(w)).map((w) => w.slice(0, 5)),
  );
const COMMON = new Set(
  'the and for with use using will that this from are not now all its one our who has had was were been idea plan approach thing way after'.split(
    ' ',
  ),
);
// What a sentence turns away from: the words after a cue of leaving ("instead of X", "not use X",
// "back to X", "~~X~~"), or the last words before a passive one or an arrow ("X is gone",
// "Playwright dropped", "X → Y"). The second kind is found from the cue backwards, so a long
// sentence is read once.
const AWAY =
  /\b(?:instead of|rather than|from|off|no longer(?: (?:use|need|using))?|not (?:use|using|do|doing)|no more|not anymore|drop(?:s|ped|ping)?|scrap(?:s|ped|ping)?|forget(?: about)?|abandon(?:s|ed|ing)?|revert(?:s|ed|ing)?(?: to)?|(?<![/\w])(?<!without )replac(?:e|es|ed|ing)|swap(?:s|ped|ping)?|undo(?:ing)?|(?<!fall(?:s|ing)? |fallen |fell )back to|skip|no)\s+((?:[^\s.,;:!?—]+\s*){1,4})|~~([^~]+)~~/gi;
const LEFT =
  /\b(?:(?:is|are|was|were|has been|have been)\s+(?:gone|no longer)|(?:(?:is|are|was|were|has been|have been|gets?|got)\s+)?(?:superseded|abandoned|replaced|dropped|reverted|reversed|withdrawn|rescinded|removed|retired|out)\b)|→/gi;
function turnedFrom(sentence: string): string {
  const words: string[] = [];
  // exec over the shared regexes (matchAll would copy them on every call).
  AWAY.lastIndex = 0;
  for (let m = AWAY.exec(sentence); m; m = AWAY.exec(sentence)) words.push(m[1] ?? m[2] ?? '');
  LEFT.lastIndex = 0;
  for (let m = LEFT.exec(sentence); m; m = LEFT.exec(sentence)) {
    const before =
      sentence
        .slice(Math.max(0, m.index - 80), m.index)
        .split(/[.,;:!?—→]/)
        .pop() ?? '';
    words.push(before.trim().split(/\s+/).slice(-3).join(' '));
  }
  return words.join(' ');
}

// An earlier decision's words and the words it turns from itself, kept for the next sentences:
// a session checks each sentence against the same few decisions.
const seen = new Map<string, { said: Set<string>; agreed: Set<string> }>();
function earlierWords(earlier: string) {
  let w = seen.get(earlier);
  if (!w) {
    if (seen.size >= 256) seen.clear();
    w = { said: stems(earlier), agreed: stems(turnedFrom(plain(earlier))) };
    seen.set(earlier, w);
  }
  return w;
}

/** A cue of turning away from something ("actually", "instead", "no longer", "on reflection", ...). */
export const changeCue = (sentence: string) => CHANGE.test(plain(sentence));

/**
 * Which earlier decisions a sentence replaces: it has a cue of change, and names what it turns
 * from as an earlier decision does (one that turns from the same thing agrees with it), or it
 * points back as a whole ("scrap that"). Empty when it replaces none.
 */
export function reversed(sentence: string, earlier: readonly string[]): string[] {
  if (earlier.length === 0) return [];
  const s = plain(sentence);
  if (s.length > MAX_QUOTE || s.endsWith('?') || REPORT.test(s) || EDIT_NEXT.test(s) || !CHANGE.test(s)) return [];
  if (BACK.test(s)) return [earlier.at(-1)!];
  const from = [...stems(turnedFrom(s))];
  if (from.length === 0) return [];
  return earlier.filter((e) => {
    const { said, agreed } = earlierWords(e);
    return from.some((w) => said.has(w) && !agreed.has(w));
  });
}

// Something tried did not work...
const FAILED =
  /\b(?:did(?:n['’]t| not) (?:work|help|fix|resolve)|do(?:es)?(?:n['’]t| not) (?:work|help|fix|resolve)|(?:is|are)(?:n['’]t| not) (?:working|going anywhere|viable|worth)|not (?:working|viable|going anywhere|worth it)|no luck|dead end|still (?:fail|fails|failing|hangs?|times? out|races?|breaks?|resets?|crash(?:es)?|errors?|the same|not|doesn['’]t|does not)|no (?:change|effect|improvement)|not a fix|only delays|couldn['’]t cope|made [\w\s-]{0,30}worse|same (?:error|problem|crash|failure)|unworkable|won['’]t work|can['’]t work|cannot work|wrong (?:idea|approach)|a mistake|no difference|broke (?:more|it|the)|(?:is|was) blocked|impossible|pointless|fails? (?:again|on)|has failed|failed,|proved|no dice|to no avail|without success|unsuccessful(?:ly)?|not feasible|infeasible|won['’]t fly|ruled out|still (?:broken|red|the same|wrong)|no improvement|made (?:it|things) worse|makes (?:it|things) worse)\b/i;
// ...and is given up.
const DROP =
  /\b(?:abandon(?:ing|ed)?|giv(?:e|ing) up|given (?:\w+ )?up|drop(?:ping|ped)? (?:it|that|this|the)|scrap(?:ping)?|revert(?:ing|ed)?|roll(?:ing|ed)? (?:it |that |this )?back|backing (?:it|that|this)(?: change)? out|undo(?:ing)?|remov(?:e|ed|ing) it|set aside|discard(?:ing|ed)?|withdraw(?:ing)?|(?:won['’]t|not|no longer) (?:pursue|continue|chase)|not going that way|off the table|forget|leave this|put it back|stop (?:trying|chasing)|dropped|not worth|ditch(?:ed|ing)?|shelv(?:e|ed|ing)|park(?:ed|ing)? (?:it|that|this)|bail(?:ed|ing)? on|ruled? (?:it |that |this )?out|backed (?:it |that |this )?out|undid|let['’]s not|back(?:ing)? off|let(?:ting)? (?:that|it) go|not keeping it|t(?:ake|ook) (?:it|that)(?: back)? out|rip(?:ping)? (?:it|that) out|(?:that|the) (?:change|attempt|idea|hack) is gone)\b|~~/i;
// Turning to something else: a drop only when the sentence itself says the first thing failed.
const ELSEWHERE =
  /\b(?:(?:try|something) (?:else|another|a different)|(?:better|different|another|other) (?:approach|way|route)|instead|moved? on|removed|reverted|gone|taken out|(?:i|we) stop)\b/i;
const GAVE_UP =
  /^(?:tried and abandoned|abandoned(?: approach)?|dead end|what didn['’]t work|tried)\s*[:—–]|\b(?:giving up on|gave up on|given that up|abandon(?:ed|ing) (?:the|that|this)|not going that way|off the table|ruled out|ditching|bail(?:ed|ing) on|no dice)\b/i;

// A verdict that the approach cannot work, whatever comes next.
const HOPELESS =
  /\b(?:dead end|not viable|(?:is|are)(?:n['’]t| not) (?:going anywhere|viable)|not going anywhere|unworkable|won['’]t work|can['’]t work|cannot work|wrong (?:idea|approach))\b/i;
// Telling it afterwards: "I had started X, but ..., so I put it back".
const TOLD =
  /\b(?:i|we)(?:['’]d| had)? (?:started|tried|looked into|gave\b.{1,40}\ba try|attempted|experimented with)\b/i;
// What the agent does next, right after a failure.
const NEXT = /\b(?:i['’]ll|let me|let['’]s|i will|we['’]ll|switching|moving)\b/i;

/** An approach the speaker gives up: a failure and a cue of dropping it, or a verdict or a new plan right after a failing command. */
export function isAbandoned(sentence: string, afterFailure: boolean): boolean {
  const s = plain(sentence);
  if (s.length > MAX_QUOTE || s.endsWith('?')) return false;
  if (GAVE_UP.test(s)) return true;
  if (DROP.test(s) && (FAILED.test(s) || afterFailure || TOLD.test(s))) return true;
  if (ELSEWHERE.test(s) && FAILED.test(s)) return true;
  return afterFailure && (HOPELESS.test(s) || (FAILED.test(s) && NEXT.test(s)));
}
