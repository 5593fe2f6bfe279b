// Secret redaction: everything that may reach a file under .handoff/, a resume prompt, a
// hook's output, a terminal or a model request passes through here first.
//
// The rules are gitleaks' default set (gitleaks-rules.ts, generated from upstream's toml and
// translated to bounded JavaScript patterns) plus ours (extra-rules.ts) for shapes gitleaks
// leaves to its path filters or does not know. gitleaks, not secretlint: its rules are data
// (a regex, keywords, an entropy floor and allow-lists each), so they port as a table, every
// pattern can be tested alone for linear time, and the keywords are a prefilter that keeps a
// session start from running the patterns of providers its text never names.
// Each rule's pattern is compiled on its first use, so a text that names few providers
// compiles few patterns.
import { EXTRA_RULES } from './extra-rules.js';
import { GLOBAL_ALLOW, RULES, type GitleaksAllow, type GitleaksRule } from './gitleaks-rules.js';

export interface Redaction {
  kind: string;
  /** Offset of the match in the original text. */
  index: number;
}

export interface Redacted {
  text: string;
  redactions: Redaction[];
}

export interface Finding {
  kind: string;
  /** The secret's offsets in the text: the label before it is left readable. */
  start: number;
  end: number;
}

interface Compiled {
  rule: GitleaksRule;
  pattern?: RegExp;
  allow?: Array<{ regexes: RegExp[]; stopwords: readonly string[]; target: string; all: boolean }>;
}

/** The rules that name no provider: when one finds the same span as a provider's rule,
 *  the provider's name is the one shown, so they come last. */
const GENERIC = new Set(['generic-api-key', 'password-assignment', 'secret-assignment', 'authorization-header']);

/** Every rule: gitleaks' and ours by provider, then the generic ones. */
export const ALL_RULES: readonly GitleaksRule[] = [...RULES, ...EXTRA_RULES].sort(
  (a, b) => Number(GENERIC.has(a.id)) - Number(GENERIC.has(b.id)),
);

let compiled: Compiled[] | undefined;
let globalAllow: RegExp[] | undefined;

function compile(c: Compiled): Required<Compiled> {
  c.pattern ??= new RegExp(c.rule.source, 'g');
  c.allow ??= (c.rule.allow ?? []).map((a: GitleaksAllow) => ({
    regexes: (a.regexes ?? []).map((r) => new RegExp(r)),
    stopwords: a.stopwords ?? [],
    target: a.target ?? 'secret',
    all: a.all === true,
  }));
  return c as Required<Compiled>;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The line of a match, at most a thousand characters each side: a search for the line's
 *  ends in a text of one long line, once per match, would make redaction quadratic. */
function lineAt(text: string, start: number, end: number): string {
  const lo = Math.max(0, start - 1000);
  const before = text.slice(lo, start);
  const after = text.slice(end, end + 1000);
  const cut = after.indexOf('\n');
  return before.slice(before.lastIndexOf('\n') + 1) + text.slice(start, end) + (cut < 0 ? after : after.slice(0, cut));
}

function allowed(c: Required<Compiled>, secret: string, match: string, text: string, at: number): boolean {
  globalAllow ??= (GLOBAL_ALLOW.regexes ?? []).map((r) => new RegExp(r));
  const lower = secret.toLowerCase();
  if (globalAllow.some((r) => r.test(secret))) return true;
  if ((GLOBAL_ALLOW.stopwords ?? []).some((w) => lower.includes(w))) return true;
  for (const a of c.allow) {
    const target = a.target === 'match' ? match : a.target === 'line' ? lineAt(text, at, at + match.length) : secret;
    const byRegex = a.regexes.length > 0 && a.regexes.some((r) => r.test(target));
    const byWord = a.stopwords.length > 0 && a.stopwords.some((w) => lower.includes(w));
    if (a.all ? byRegex && byWord : byRegex || byWord) return true;
  }
  return false;
}

let keywordScan: { byPair: Map<number, string[]>; short: string[] } | undefined;

/**
 * The rules' keywords that occur in `lower`, in one pass over it (a search per keyword made
 * listing thousands of short goals cost most of `handoff list`): at each position, only the
 * keywords that start with the two characters there are compared. Exactly the keywords
 * `lower.includes` would find.
 */
export function presentKeywords(lower: string): Set<string> {
  if (!keywordScan) {
    const byPair = new Map<number, string[]>();
    const short: string[] = [];
    for (const k of new Set(ALL_RULES.flatMap((r) => r.keywords ?? []))) {
      if (k.length < 2) {
        short.push(k);
        continue;
      }
      const pair = k.charCodeAt(0) * 0x10000 + k.charCodeAt(1);
      byPair.set(pair, [...(byPair.get(pair) ?? []), k]);
    }
    keywordScan = { byPair, short };
  }
  const out = new Set<string>();
  for (const k of keywordScan.short) if (lower.includes(k)) out.add(k);
  for (let i = 0; i + 1 < lower.length; i++) {
    const candidates = keywordScan.byPair.get(lower.charCodeAt(i) * 0x10000 + lower.charCodeAt(i + 1));
    if (candidates) for (const k of candidates) if (lower.startsWith(k, i)) out.add(k);
  }
  return out;
}

let ruleIndex: { always: number[]; byKeyword: Map<string, number[]> } | undefined;

/** Which rules (by their place in ALL_RULES) each keyword calls for, and those that run on every text. */
function keywordRules() {
  if (!ruleIndex) {
    ruleIndex = { always: [], byKeyword: new Map() };
    for (const [i, rule] of ALL_RULES.entries()) {
      if (rule.keywords === undefined) ruleIndex.always.push(i);
      for (const k of rule.keywords ?? []) ruleIndex.byKeyword.set(k, [...(ruleIndex.byKeyword.get(k) ?? []), i]);
    }
  }
  return ruleIndex;
}

/** Every secret in `text`, as gitleaks would report it, in no particular order. */
export function findSecrets(text: string): Finding[] {
  compiled ??= ALL_RULES.map((rule) => ({ rule }));
  // The rules to run: those without keywords, and those with a keyword in the text, in their order.
  const chosen = new Set(keywordRules().always);
  for (const k of presentKeywords(text.toLowerCase())) for (const i of keywordRules().byKeyword.get(k)!) chosen.add(i);
  const out: Finding[] = [];
  for (const i of [...chosen].sort((a, b) => a - b)) {
    const c = compile(compiled[i]!);
    for (const m of text.matchAll(c.pattern)) {
      let secret = m[0];
      if (c.rule.group !== undefined) secret = m[c.rule.group] ?? '';
      else for (let g = 1; g < m.length; g++) if (m[g]) (secret = m[g]!), (g = m.length);
      if (!secret) continue;
      const floor = c.rule.entropy;
      if (floor !== undefined) {
        if (entropy(secret) <= floor) continue;
        // gitleaks: a generic finding without a digit is a word, not a key.
        if (c.rule.id.startsWith('generic') && !/\d/.test(secret)) continue;
      }
      let from = m.index;
      // The name before the keyword that upstream's pattern took (gitleaks-rules.ts, widened).
      if (c.rule.widened) while (from > 0 && m.index - from < 50 && /[\w.-]/.test(text[from - 1]!)) from--;
      if (allowed(c, secret, text.slice(from, m.index + m[0].length), text, m.index)) continue;
      const start = m.index + m[0].indexOf(secret);
      out.push({ kind: c.rule.id, start, end: start + secret.length });
    }
  }
  return out;
}

export function redactSecrets(text: string): Redacted {
  const spans = findSecrets(text);
  if (spans.length === 0) return { text, redactions: [] };
  // Overlapping findings (two rules on one key) become one redaction: the earliest start wins.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const redactions: Redaction[] = [];
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    const start = Math.max(span.start, at);
    out += text.slice(at, start) + `[REDACTED:${span.kind}]`;
    if (start === span.start) redactions.push({ kind: span.kind, index: span.start });
    at = span.end;
  }
  return { text: out + text.slice(at), redactions };
}
