// What the learned sentence model reads of a sentence: its words reduced to a rough stem,
// the pairs of them, how it starts and ends, who said it, what the extractor knew (an
// earlier decision and how many of its words the sentence repeats, a failing command, the
// question asked), and the rules' own verdicts. Pure and deterministic: the training script
// and the extractor must see the same features for the same sentence.
import { classOf, type SentenceContext, verdicts } from './rule-class.js';

/** Features the training drops at random for some sentences, so the model also learns the words. */
export const RULE_PREFIX = 'r:';

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
    'use adopt pick choose chose chosen select opt prefer preferred settle stick standardize standardise go went decide decided decision favor favour default keep stay land agree agreed finalize lock approach design call plan choice option winner verdict conclusion',
  change:
    'instead rather switch replace swap migrate move revert change reconsider rethink actually scratch scrap undo reverse back anymore longer supersede revise turn pivot flip ditch retire deprecate rework correction update revisit overturn',
  fail: 'fail failed failure error crash broke broken break timeout hang hangs flaky flake worse slow wrong mismatch regress regression unable impossible leak panic exception blocked stuck race deadlock segfault red nope nothing still again same',
  drop: 'abandon give drop scrap remove revert undo discard ditch shelve park skip stop quit forget ignore rollback roll bail table shelved dead',
  neg: 'not no never none neither nor without',
  future: 'will shall going gonna let should must would plan next from henceforth onward onwards forward',
  ask: 'which whether what how or want ok okay confirm thoughts think wonder unsure sure prefer either',
  why: 'because since so due as reason avoid simpler faster safer cleaner better easier cheaper consistent consistency simplicity enough',
  tried: 'tried try attempt attempted experimented tested trying gave',
  self: 'i we us let our my',
  you: 'you your',
};
const MEANING = new Map<string, string>();
for (const [meaning, list] of Object.entries(LEXICON))
  for (const w of list.split(' ')) if (!MEANING.has(stem(w))) MEANING.set(stem(w), meaning);

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
  if (w.length > 0) {
    out.add(`b:${w.at(-1)}_$`);
    out.add(`first:${sp}:${w[0]}`);
  }
  const trimmed = text.trim();
  if (trimmed.endsWith('?')) out.add('end:?');
  else if (trimmed.includes('?')) out.add('has:?');
  if (trimmed.endsWith(':')) out.add('end::');
  if (/^\s*#/.test(trimmed)) out.add('heading');
  out.add(`len:${w.length < 4 ? 's' : w.length < 12 ? 'm' : w.length < 30 ? 'l' : 'xl'}`);
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
