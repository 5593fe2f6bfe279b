// Folding an agent's own compaction summary into the handoff written for that compaction:
// its items join the sections after the rules' own, each naming where it came from, and
// what the rules already said is not said twice. Checked on the way in: a path git does
// not know is flagged, secrets are redacted, and pins never come from a summary (an item
// that restates a pin is left to the pin, which stays word for word in .handoff/pins/).
// Pure: agents/harvest.ts (a summary) and `new --sections` (what the agent writes itself) read, ask git and write.
import { code, findSection, inline, parseBody, renderBody } from '../store/markdown.js';
import { itemKey, parseItems } from '../store/items.js';
import { TITLE } from '../store/sections.js';
import { redactSecrets } from '../security/redact.js';
import { pathsInText } from '../model/model-verify.js';
import type { ParsedSummary, SummaryKey } from './summary-form.js';

export interface FoldInput {
  /** The handoff's body as the compaction hook wrote it. */
  body: string;
  summary: ParsedSummary;
  /** "summary of Claude Code session 1234". */
  provenance: string;
  /** Whether git knows a path (tracked, or changed in the work tree). */
  known: (path: string) => boolean;
  /** The active pins' texts. */
  pins: readonly string[];
}

export interface Folded {
  body: string;
  /** The user's request as the summary gives it (redacted), if it does. */
  request?: string;
  added: number;
  /** Paths the summary names that git does not know. */
  unknownPaths: string[];
  /** Items left out because they restate a pin. */
  pinItems: number;
  /** Items left out because the section already says them in other words. */
  restated: number;
  /** Kinds of secrets redacted. */
  redacted: string[];
}

const ORDER: readonly Exclude<SummaryKey, 'goal'>[] = [
  'completed',
  'in_progress',
  'next_steps',
  'open_questions',
  'decisions',
  'tried',
];

// Words that say nothing of what an item is about ("not", "never" and "no" do, and stay).
const FILLER = new Set(
  'a an the of to in on for from and or it its is was were be been we i you so because why that this with by as at there then did do does has have had'.split(
    ' ',
  ),
);
// Words that turn an item into a change of it: an item that adds one is never a retelling.
const CHANGE = new Set(
  'not no never instead rather but stop stopped drop dropped switch switched replace replaced revert reverted abandon abandoned anymore longer undo'.split(
    ' ',
  ),
);
const contentWords = (text: string) =>
  new Set(
    itemKey(text)
      .split(' ')
      .filter((w) => w !== '' && !FILLER.has(w)),
  );

/**
 * The same item in other words: every word of the shorter one (four or more) is in the
 * other, and the other adds no word of change, as when a later agent's summary retells a
 * decision the handoff carries ("Export sum from `src/sum.js` — why: the tests import it"
 * and "We decided to export sum from src/sum.js, because the tests import it"). Strict on
 * purpose: an item that swaps a word ("a Map" for "a Set") may be a reversal, and stays.
 */
export function restates(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size < 4) return false;
  for (const w of small) if (!big.has(w)) return false;
  for (const w of big) if (!small.has(w) && CHANGE.has(w)) return false;
  return true;
}

export function foldSummary(input: FoldInput): Folded {
  const body = parseBody(input.body);
  const redacted: string[] = [];
  const clean = (t: string) => {
    const r = redactSecrets(t);
    redacted.push(...r.redactions.map((x) => x.kind));
    return r.text;
  };
  const pinKeys = input.pins.map(itemKey).filter((k) => k.length >= 12);
  const unknownPaths = new Set<string>();
  let pinItems = 0;
  let added = 0;
  let restated = 0;
  const lineFor = (text: string) => {
    const missing = [...new Set(pathsInText(text))].filter((p) => !input.known(p.replace(/^\.\//, '')));
    for (const p of missing) unknownPaths.add(p);
    const flag = missing.length
      ? ` **[unverified: ${missing.map(code).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a file git knows]**`
      : '';
    return `${inline(clean(text))}${flag} (${input.provenance})`;
  };
  const append = (title: string, lines: string[]) => {
    if (lines.length === 0) return;
    const section = findSection(body, title);
    if (!section) {
      const last = body.sections.at(-1);
      if (last) last.content = `${last.content.replace(/\s+$/, '')}\n\n`;
      body.sections.push({ title, heading: `## ${title}\n`, content: `\n${lines.join('\n')}\n` });
      return;
    }
    const kept = section.content.replace(/\s+$/, '');
    const trailing = section === body.sections.at(-1) ? '\n' : '\n\n';
    section.content = `${kept === '' ? '\n' : `${kept}\n`}${lines.join('\n')}${trailing}`;
  };

  for (const key of ORDER) {
    const items = input.summary.sections[key] ?? [];
    const title = TITLE[key];
    const section = findSection(body, title);
    const existing = section ? parseItems(section.content) : [];
    const have = new Set(existing.map((i) => itemKey(i.text)));
    const said = existing.map((i) => contentWords(i.text));
    let next = Math.max(0, ...existing.map((d) => Number(d.id?.slice(1) ?? 0))) + 1;
    const lines: string[] = [];
    for (const text of items) {
      const k = itemKey(text);
      if (pinKeys.some((p) => k.includes(p))) {
        pinItems++;
        continue;
      }
      if (k === '' || have.has(k)) continue;
      const words = contentWords(text);
      if (said.some((w) => restates(w, words))) {
        restated++;
        continue;
      }
      have.add(k);
      said.push(words);
      lines.push(`- ${key === 'decisions' ? `D${next++}: ` : ''}${lineFor(text)}`);
    }
    added += lines.length;
    append(title, lines);
  }
  const goal = input.summary.sections.goal ?? [];
  // The form asks for "the user's request"; a summarizer may repeat that label.
  const asked = goal.join(' ').replace(/^(?:the )?user['’]?s (?:original )?request:\s*/i, '');
  const request = goal.length > 0 ? clean(asked) : undefined;
  if (request !== undefined) {
    append(TITLE.goal, [`- The user's request: ${lineFor(asked)}`]);
    added++;
  }
  return {
    body: `${renderBody(body).replace(/\s+$/, '')}\n`,
    ...(request !== undefined ? { request } : {}),
    added,
    unknownPaths: [...unknownPaths],
    pinItems,
    restated,
    redacted,
  };
}
