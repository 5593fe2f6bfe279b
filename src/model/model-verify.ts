// After the call: check what the model claims against what the tool knows, then merge
// its items into the deterministic draft. A claim nothing backs is kept, visibly marked
// unverified, never written as fact. Pins never come from here.
import type { ModelAnswer, AnswerItem, AnswerSection } from './model-answer.js';
import type { ModelInput } from './model-input.js';
import { code, findSection, inline, parseBody, renderBody } from '../store/markdown.js';
import { redactSecrets } from '../security/redact.js';
import { itemKey, parseItems, renderItem as renderCarried } from '../store/items.js';
import { MODEL_KEYS, TITLE } from '../store/sections.js';

// "supersedes D2": the only way a model's decision may replace one; checked against the
// decisions the draft holds, and written as a claim (not a marker) when it names none.
const SUPERSEDES = /\b(?:supersedes|replaces|overrides)\s+(D\d+)\b/gi;

/** Ids of the current (not superseded) decisions of a draft. */
function currentDecisionIds(draft: string): Set<string> {
  const section = findSection(parseBody(draft), TITLE.decisions);
  return new Set((section ? parseItems(section.content) : []).filter((d) => d.id && !d.supersededBy).map((d) => d.id!));
}

export interface Verified {
  item: AnswerItem;
  problems: string[];
}

export interface Verification {
  sections: Record<AnswerSection, Verified[]>;
  pinCandidates: Array<{ quote: string; problems: string[] }>;
  unverified: number;
}

const clean = (p: string) => p.trim().replace(/^\.\//, '');

// A bare `name.ext` is a path only with a file-like extension: `process.env` is code.
const FILE_EXTENSIONS =
  /\.(?:[cm]?[jt]sx?|json|md|mdx|ya?ml|toml|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|sh|sql|css|scss|html|vue|svelte|txt|lock|xml|ini|cfg)$/i;

/** `tokens` in the text that look like repository paths: a slash or a file extension. */
export function pathsInText(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const t = m[1]!;
    if (/^[\w.@-]+(?:\/[\w.@-]+)+\/?$/.test(t) || (/^[\w@-][\w.@-]*\.(\w+)$/.test(t) && FILE_EXTENSIONS.test(t)))
      found.push(t);
  }
  return found;
}

export function verifyAnswer(answer: ModelAnswer, input: ModelInput): Verification {
  const t = input.transcript;
  const known = new Set<string>();
  for (const f of input.files) {
    known.add(f.path);
    if (f.from) known.add(f.from);
  }
  for (const f of input.repoPaths ?? []) known.add(f);
  for (const f of t?.extracted.files ?? []) known.add(clean(f));
  const haystack = [...(t?.userMessages ?? []), ...(t?.events ?? [])].join('\n');
  const pathKnown = (p: string) => known.has(clean(p)) || (clean(p).length > 2 && haystack.includes(clean(p)));
  const users = t?.userMessages ?? [];
  const quoteKnown = (q: string) => q.trim() !== '' && users.some((m) => m.includes(q));
  const passed = new Set((t?.extracted.commands ?? []).filter((c) => c.passed).map((c) => c.command.trim()));
  const decisionIds = currentDecisionIds(input.draft);
  let unverified = 0;

  const check = (item: AnswerItem): Verified => {
    const problems: string[] = [];
    const paths = [...new Set([...item.files, ...pathsInText(item.text), ...pathsInText(item.why)])];
    for (const p of paths) if (!pathKnown(p)) problems.push(`${code(p)} is not in git's list or the transcript`);
    for (const q of item.quotes)
      if (!quoteKnown(q)) problems.push(`the quote "${inline(q)}" is not in the user's messages`);
    for (const c of item.commands_passed)
      if (!passed.has(c.trim())) problems.push(`no passing run of ${code(c)} in the transcript`);
    for (const m of `${item.text} ${item.why}`.matchAll(SUPERSEDES)) {
      if (!decisionIds.has(m[1]!.toUpperCase()))
        problems.push(`it names ${m[1]} as superseded, which is not a current decision of this handoff`);
    }
    if (problems.length) unverified++;
    return { item, problems };
  };
  const sections = Object.fromEntries(MODEL_KEYS.map((s) => [s, answer[s].map(check)])) as Verification['sections'];
  const pinCandidates = answer.pin_candidates.map((quote) => {
    const problems = quoteKnown(quote) ? [] : ["not the user's words verbatim"];
    if (problems.length) unverified++;
    return { quote, problems };
  });
  return { sections, pinCandidates, unverified };
}

function renderItem(v: Verified): string {
  const { item } = v;
  // Model text is folded to one line: it cannot open a section or a fence.
  let line = `- ${inline(item.text)}`;
  if (item.why.trim()) line += ` Why: ${inline(item.why)}`;
  const refs = [...item.files.map(code), ...item.commands_passed.map((c) => `${code(c)} passed`)];
  if (refs.length) line += ` (${refs.join(', ')})`;
  for (const q of item.quotes) line += ` The user: "${inline(q)}"`;
  if (v.problems.length) line += ` **[unverified: ${v.problems.join('; ')}]**`;
  // The model may echo a secret it was never sent (or one redaction missed): not into a file.
  return redactSecrets(line).text;
}

/**
 * The model's decisions, each with the next free id. One that names a current decision as
 * superseded, verified, marks it; an unverified claim is written as a claim that no later
 * reading takes for a marker.
 */
function decisionLines(body: ReturnType<typeof parseBody>, decisions: readonly Verified[]): string[] {
  const section = findSection(body, TITLE.decisions);
  const items = section ? parseItems(section.content) : [];
  let next = Math.max(0, ...items.map((d) => Number(d.id?.slice(1) ?? 0))) + 1;
  const lines: string[] = [];
  for (const v of decisions) {
    const id = `D${next++}`;
    const verified = v.problems.length === 0;
    const targets = verified
      ? [...`${v.item.text} ${v.item.why}`.matchAll(SUPERSEDES)].map((m) => m[1]!.toUpperCase())
      : [];
    const item = verified
      ? v.item
      : {
          ...v.item,
          text: v.item.text.replace(SUPERSEDES, 'claims to supersede $1'),
          why: v.item.why.replace(SUPERSEDES, 'claims to supersede $1'),
        };
    lines.push(renderItem({ item, problems: v.problems }).replace(/^- /, `- ${id}: `));
    if (section && targets.length > 0) {
      section.content = section.content
        .split('\n')
        .map((line) => {
          const d = /^- (?!~~)/.test(line) ? parseItems(line)[0] : undefined;
          return d?.id && targets.includes(d.id) ? renderCarried({ ...d, supersededBy: id }) : line;
        })
        .join('\n');
    }
  }
  return lines;
}

/** The deterministic draft with the model's items appended to their sections. */
export function mergeDraft(draft: string, v: Verification, note: string): string {
  const body = parseBody(draft);
  const append = (title: string, lines: string[]) => {
    if (!lines.length) return;
    const section = findSection(body, title);
    if (!section) {
      body.sections.push({ title, heading: `## ${title}\n`, content: `\n${lines.join('\n')}\n` });
      return;
    }
    const existing = section.content.replace(/\s+$/, '');
    const trailing = section === body.sections.at(-1) ? '\n' : '\n\n';
    section.content = `${existing === '' ? '\n' : `${existing}\n`}${lines.join('\n')}${trailing}`;
  };
  for (const s of MODEL_KEYS) {
    const title = TITLE[s];
    // What the draft already says (carried or extracted) is not said twice.
    const section = findSection(body, title);
    const have = new Set((section ? parseItems(section.content) : []).map((i) => itemKey(i.text)));
    const fresh = v.sections[s].filter((x) => !have.has(itemKey(x.item.text)));
    if (s === 'decisions') append(title, decisionLines(body, fresh));
    else append(title, fresh.map(renderItem));
  }
  append(
    TITLE.open_questions,
    v.pinCandidates.map(
      (p) =>
        redactSecrets(
          `- Pin candidate (\`handoff pin\` to keep it): "${inline(p.quote)}"${p.problems.length ? ` **[unverified: ${p.problems.join('; ')}]**` : ''}`,
        ).text,
    ),
  );
  append(TITLE.references, [`- ${inline(note)}`]);
  return renderBody(body);
}
