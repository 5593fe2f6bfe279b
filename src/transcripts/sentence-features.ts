// What the learned sentence model reads of a sentence: its words reduced to a rough stem,
// the pairs of them, their classes by meaning, how it starts and ends, its shape, how many
// things it names, who said it, what the extractor knew (an earlier decision and how many of
// its words the sentence repeats, a failing command, the question asked), and the rules' own
// verdicts. Pure and deterministic: the training script
// and the extractor must see the same features for the same sentence.
import { classOf, type SentenceContext, verdicts } from './rule-class.js';

import { RULE_PREFIX } from './sentence-model.js';

export { RULE_PREFIX };

// Contractions carry the negation and the modal that matter here ("didn't", "we'll"), in one pass.
const CONTRACTION = /\b(can|won)['’]t\b|n['’]t\b|['’](ll|re|ve|d|m|s)\b/g;
const EXPANDED: Record<string, string> = { ll: ' will', re: ' are', ve: ' have', d: ' would', m: ' am', s: '' };
const expand = (_: string, modal: string | undefined, tail: string | undefined) =>
  modal ? (modal === 'can' ? 'can not' : 'will not') : tail ? EXPANDED[tail]! : ' not';

/** A rough stem: enough that "dropping", "dropped" and "drops" meet, never a dictionary. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return trimDouble(word.slice(0, -3));
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return trimDouble(word.slice(0, -2));
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}
// "dropp" -> "drop", "stopp" -> "stop"; "install" stays.
const trimDouble = (w: string) => (/([bdgmnprt])\1$/.test(w) ? w.slice(0, -1) : w);

/** The sentence as the model's words: code, paths and numbers each become one placeholder. */
export function words(text: string): string[] {
  const s = text
    .toLowerCase()
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
    .replace(/`[^`]*`/g, ' _code_ ')
    .replace(/\b[\w.-]*[\\/][\w./\\-]*|\b[\w-]+\.(?:[a-z]{1,4})\b/g, ' _path_ ')
    .replace(/\b\d+(?:[.,]\d+)*\b/g, ' _num_ ');
  return (s.replace(CONTRACTION, expand).match(/_[a-z]+_|[\p{L}]+/gu) ?? []).map(stem);
}

// Classes of words by meaning, from plain English rather than from the corpus: a phrasing
// the model never saw still shares its classes with ones it did ("we'll adopt X" and "going
// with X" both commit and choose). Each word is given as written and reduced by stem().
const LEXICON: Record<string, string> = {
  choose:
    'use adopt pick choose chose chosen select opt prefer preferred settle stick standardize standardise go went decide decided decision favor favour default keep stay land agree agreed finalize lock approach design call plan choice option winner verdict conclusion recommend recommendation reach wire model represent route serve treat handle host own target',
  change:
    'instead rather switch replace swap migrate move revert change reconsider rethink actually scratch scrap undo reverse back anymore longer supersede superseding revise turn pivot flip ditch retire deprecate rework correction update revisit overturn retract unwind cancel cancelled away again opposite redo return anyway finally',
  fail: 'fail failed failure error crash broke broken break timeout hang hangs flaky flake worse slow wrong mismatch regress regression unable impossible leak panic exception blocked stuck race deadlock segfault red nope nothing still again same cannot viable dead trouble hurt overkill corrupt corrupts exceed exceeds differ differs ignore ignores starve lost lose apart messy fragile complicated tangled bad',
  drop: 'abandon give drop scrap remove removed revert undo discard ditch shelve park skip stop quit forget ignore rollback roll bail table shelved dead delete deleted kill pursue pursuing withdraw withdrawn closed out leave disable disabled off',
  neg: 'not no never none neither nor without',
  future: 'will shall going gonna let should must would plan next from henceforth onward onwards forward',
  ask: 'which whether what how or want ok okay confirm thoughts think wonder unsure sure prefer either',
  why: 'because since so due as reason avoid simpler faster safer cleaner better easier cheaper consistent consistency simplicity enough worth matters given considering',
  tried: 'tried try attempt attempted experimented trying gave trialled trial',
  self: 'i we us let our my',
  you: 'you your',
  // A next step acts on the work as it is; a decision shapes it.
  step: 'read look check run open see inspect investigate search grep find debug verify print rerun examine explore start begin continue show list dig review',
  hedge:
    'might could maybe perhaps probably possibly option options consider considering if either alternatively whereas suppose hypothetically',
  report:
    'now already tested expected done finished pass passed works worked succeed succeeded green correctly fine ok published printed returned took',
  // An edit to the code, announced or reported ("I'll modify X to ...", "Updated the tests"): the
  // work's next step or last one, which git shows; a choice is told by other words beside it.
  edit: 'modify modifies add adds added update updates fix fixes fixed create creates created implement implemented refactor refactored rename renamed import edit edited adjust adjusted tweak tweaked insert inserted apply applied patch patched convert converted write wrote',
  // Following a choice made elsewhere ("UUIDv7 keys too", "same pattern", "like the server's").
  same: 'too same like matching match mirror identical likewise well',
  // What a decision is about: the parts of a design.
  part: 'format layout schema module library api interface policy layer store storage cache queue table key config configuration protocol pattern structure type dependency service endpoint framework flag strategy backend database driver client server migration architecture stack runner default convention rule',
};
const MEANING = new Map<string, string>();
for (const [meaning, list] of Object.entries(LEXICON))
  for (const w of list.split(' ')) if (!MEANING.has(stem(w))) MEANING.set(stem(w), meaning);

// Between a subject and its verb: "we will", "I am going to", "we have just".
const AUX = new Set(
  [
    'will',
    'would',
    'am',
    'are',
    'is',
    'be',
    'going',
    'to',
    'have',
    'has',
    'just',
    'now',
    'also',
    'then',
    'gonna',
    'should',
    'shall',
    'can',
    'must',
  ].map(stem),
);

// Words too common to say whether an earlier decision is being named again.
const COMMON = new Set(
  'the and for with use will that this from are not now all its our has had was were been have then than into just also you can'.split(
    ' ',
  ),
);
const content = (w: readonly string[]) =>
  new Set(w.filter((x) => x.length > 2 && !COMMON.has(x) && !x.startsWith('_')));
// A session checks each sentence against the same few earlier decisions.
const known = new Map<string, Set<string>>();
/** The words of a text that can name a subject, by stem. */
function contentWords(text: string): Set<string> {
  let w = known.get(text);
  if (!w) {
    if (known.size >= 256) known.clear();
    w = content(words(text));
    known.set(text, w);
  }
  return w;
}

// The sentence's shape, the same whatever its words: a label before a colon ("Cache: ..."), an
// alternative turned down ("X, not Y"), a fragment opening on a gerund ("Sharding the index"),
// a passive, "I'm doing"/"we'll do", a past report.
const BULLET = /^\s*(?:[-*+•]|\d+[.)])\s+/;
const LABELLED = /^(?:\*\*)?[\p{L}`][^:.!?]{0,40}?(?:\*\*)?\s*(?::(?!\/\/)|\s[—–]|\s->|\s→)\s*\S/u;
const NOT_ALT = /(?:,|;|\(|\s)\s*not\s+[^,.;:]{1,40}[.)]?$|,\s*not\b|\bno\s+\S+\s+in\b/i;
const ALT = /\b(?:rather than|instead of|in favou?r of|over the|vs\.?|versus)\b/i;
const GERUND = /^(?!(?:nothing|something|everything|anything|during|according)\b)[a-z]+ing\b/i;
const PASSIVE = /\b(?:is|are|be|been|being|gets?|got)\s+(?:\w+ly\s+)?\w+(?:ed|en|wn|ne|lt|ht)\b/i;
const PROGRESSIVE = /\b(?:i['’]m|i am|we['’]re|we are)\s+(?:\w+ly\s+)?\w+ing\b/i;
const WILL = /\b(?:i['’]ll|we['’]ll|i will|we will|let['’]s|i['’]m going to|we['’]re going to)\b/i;
const THING_WILL =
  /^(?:the|our|all|every|each|this|these|new)\b[^,.;]{1,40}?\s(?:will|is going to|are going to|goes|go|gets|get|stays?|lives?|runs?|uses?)\b/i;
const PAST_SELF = /\b(?:i|we)\s+(?:\w+ly\s+)?\w+ed\b/i;
// A report of work done or under way, whoever writes it: a change log's "Added X" (after a
// file name or a label), "I'm adding X now".
const DONE = /^(?:\*\*[^*]{1,80}\*\*\s*[—–:-]?\s*)?[A-Z][a-z]+ed\b/;
const DOING_NOW = /\b(?:i['’]m|i am|we['’]re|we are)\s+(?:\w+ly\s+)?\w+ing\b.*\b(?:now|right now|currently|next)\b/i;
const REASON =
  /\b(?:because|since|so that|so (?!far)|to (?:keep|avoid|make|stay|get)|which (?:lets|keeps|means|avoids|gives)|given)\b|[;—–]\s*\S|\s-\s/i;
// A verb in any form, roughly: an auxiliary or modal, a common verb, or an -ed/-ing form. A
// sentence with none is a fragment ("Thumbnails: WebP, quality 80", "postgres, not mongo").
const VERBISH = new Set(
  'is are was were be been being am has have had do does did will would shall should can could may might must let lets use uses go goes run runs get gets make makes take takes keep keeps put puts need needs want wants see sees think know like try add adds set sets move moves stay stays live lives give gives come comes work works read reads write writes call calls send sends pass passes fail fails break breaks leave prefer'.split(
    ' ',
  ),
);
// A component stated doing something in the present ("The importer runs as a CronJob", "Auth goes
// through the gateway", "Settings are persisted to ..."): a plan set, or a description of the code.
const THING_DOES =
  /^(?!(?:i|we|you|it|this|that|there|let|here)\b)[^,.;:?]{2,50}?\s(?:goes|go|gets|lives|carries|owns|follows|comes|stays|sits|speaks|takes|ships|moves|grows|is to be|are to be|(?:is|are) (?:\w+ )?(?:persisted|handled|stored|kept|mapped|written|signed|generated|used|done|read|sent|split|set|fixed|pinned|guaranteed|injected|provisioned|hashed|resized|cached|versioned|served))\b/i;
// A move from one thing to another ("from Jenkins to GitHub Actions", "X → Y", "(was: ...)").
const FROM_TO = /\bfrom\s+[^,.;:]{1,30}?\s+to\b|→|\s->\s|\(was\b|\bwas:|\bback to\b|\bover from\b/i;
/** Each shape and what shows it, in the order the features are listed. */
const SHAPES: ReadonlyArray<readonly [string, RegExp]> = [
  ['label', LABELLED],
  ['not-alt', NOT_ALT],
  ['alt', ALT],
  ['gerund', GERUND],
  ['passive', PASSIVE],
  ['progressive', PROGRESSIVE],
  ['will', WILL],
  ['thing-will', THING_WILL],
  ['past-self', PAST_SELF],
  ['done', DONE],
  ['doing-now', DOING_NOW],
  ['reason', REASON],
  ['thing-does', THING_DOES],
  ['from-to', FROM_TO],
];
const isVerbish = (w: string) => VERBISH.has(w) || (w.length > 4 && /(?:ed|ing)$/.test(w));
function shape(s: string): string[] {
  const out: string[] = [];
  const body = s.replace(BULLET, '');
  const raw = body
    .toLowerCase()
    .replace(/`[^`]*`/g, ' ')
    .replace(CONTRACTION, expand)
    .match(/\p{L}+/gu);
  if (raw !== null && raw.length > 0 && !raw.some(isVerbish)) out.push('verbless');
  if (body !== s) out.push('bullet');
  for (const [name, pattern] of SHAPES) if (pattern.test(body)) out.push(name);
  if (out.length === 0) out.push('plain');
  return out;
}

// How many things the sentence names: code spans, capitalised or all-caps words after the first.
const NAMED = /`[^`]+`|(?<=\s)[A-Z][\w.+-]*[A-Z0-9][\w.+-]*|(?<=\s)[A-Z][a-z]+\b/g;

/** The features of one sentence in its context, each a short string, without repeats. */
export function features(text: string, ctx: SentenceContext): string[] {
  const w = words(text);
  const out = new Set<string>();
  const sp = ctx.speaker === 'user' ? 'u' : 'a';
  // How much of an earlier decision (or of the question) the sentence names again. A standing
  // decision counts only when the sentence names it: in a session one stands behind nearly
  // every sentence, whatever the sentence says.
  const mine = content(w);
  const overlap = (other: string) => {
    let n = 0;
    for (const x of contentWords(other)) if (mine.has(x)) n++;
    return Math.min(n, 2);
  };
  const named = Math.max(0, ...(ctx.earlier ?? []).map(overlap));
  const flags = [...(named > 0 ? ['e'] : []), ...(ctx.afterFailure ? ['f'] : []), ...(ctx.question ? ['q'] : [])];
  out.add(`sp:${sp}`);
  for (const f of flags) out.add(`ctx:${f}`);
  for (let i = 0; i < w.length; i++) {
    out.add(`w:${w[i]}`);
    out.add(`b:${i === 0 ? '^' : w[i - 1]}_${w[i]}`);
    // A word means something else right after a failure or a question.
    for (const f of flags) if (f !== 'e') out.add(`${f}w:${w[i]}`);
  }
  // The meanings present, each pair of them in order, and each with what the extractor knew.
  const meant = w.map((x) => MEANING.get(x)).filter((m) => m !== undefined);
  for (let i = 0; i < meant.length; i++) {
    out.add(`m:${meant[i]}`);
    for (const f of flags) out.add(`${f}m:${meant[i]}`);
    out.add(`${sp}m:${meant[i]}`);
    for (let j = i + 1; j < meant.length && j < i + 4; j++) out.add(`mm:${meant[i]}_${meant[j]}`);
  }
  // What the speaker does ("we'll adopt", "I'll read"): the meaning of the first verb-like word
  // after I/we, and of the sentence's first word.
  for (let i = 0; i < w.length; i++) {
    if (MEANING.get(w[i]!) !== 'self') continue;
    let j = i + 1;
    while (j < w.length && AUX.has(w[j]!)) j++;
    const m = j < w.length ? MEANING.get(w[j]!) : undefined;
    out.add(`sv:${m ?? 'other'}`);
    break;
  }
  if (w.length > 0) out.add(`fm:${MEANING.get(w[0]!) ?? 'other'}`);
  if (w.length > 0) {
    out.add(`b:${w.at(-1)}_$`);
    out.add(`first:${sp}:${w[0]}`);
  }
  const trimmed = text.trim();
  out.add(`named:${Math.min((trimmed.match(NAMED) ?? []).length, 3)}`);
  if (trimmed.endsWith('?')) out.add('end:?');
  else if (trimmed.includes('?')) out.add('has:?');
  if (trimmed.endsWith(':')) out.add('end::');
  if (/^\s*#/.test(trimmed)) out.add('heading');
  const shapes = shape(trimmed);
  const size = w.length < 4 ? 's' : w.length < 12 ? 'm' : w.length < 30 ? 'l' : 'xl';
  for (const [i, f] of shapes.entries()) {
    out.add(`s:${f}`);
    out.add(`${sp}s:${f}`);
    out.add(`${size}s:${f}`);
    for (const g of flags) out.add(`${g}s:${f}`);
    // Shapes together: a fragment that turns an alternative down ("postgres, not mongo").
    for (const h of shapes.slice(i + 1)) out.add(`ss:${f}_${h}`);
  }
  out.add(`len:${size}`);
  if (named > 0) out.add(`ov:e${named}`);
  if (ctx.question) out.add(`ov:q${overlap(ctx.question)}`);
  // The rules' verdicts: strong on the wording they know, silent on the rest.
  const v = verdicts(text, ctx);
  out.add(`${RULE_PREFIX}class:${classOf(v, ctx)}`);
  if (v.choice) out.add(`${RULE_PREFIX}choice`);
  if (v.abandoned) out.add(`${RULE_PREFIX}abandoned`);
  if (v.reversed) out.add(`${RULE_PREFIX}reversed`);
  if (v.question) out.add(`${RULE_PREFIX}question`);
  if (v.rejection) out.add(`${RULE_PREFIX}rejection`);
  if (v.constraint) out.add(`${RULE_PREFIX}constraint`);
  if (v.answers) out.add(`${RULE_PREFIX}answers`);
  return [...out];
}
