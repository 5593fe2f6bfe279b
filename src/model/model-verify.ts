// After the call: check what the model claims against what the tool knows, then merge
// its items into the deterministic draft. A claim nothing backs is kept, visibly marked
// unverified, never written as fact. Pins never come from here.
import type { ModelAnswer, AnswerItem, AnswerSection } from './model-answer.js';
import type { ModelInput } from './model-input.js';
import { code } from '../handoff/files.js';
import { findSection, inline, parseBody, renderBody } from '../store/markdown.js';
import { redactSecrets } from '../security/redact.js';

export interface Verified {
  item: AnswerItem;
  problems: string[];
}

export interface Verification {
  sections: Record<AnswerSection, Verified[]>;
  pinCandidates: Array<{ quote: string; problems: string[] }>;
  unverified: number;
}

const TITLES: Record<AnswerSection, string> = {
  completed: 'Completed',
  in_progress: 'In progress',
  next_steps: 'Next steps',
  open_questions: 'Open questions',
  decisions: 'Decisions',
};

const clean = (p: string) => p.trim().replace(/^\.\//, '');

// A bare `name.ext` is a path only with a file-like extension: `process.env` is code.
const FILE_EXTENSIONS = /\.(?:[cm]?[jt]sx?|json|md|mdx|ya?ml|toml|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|sh|sql|css|scss|html|vue|svelte|txt|lock|xml|ini|cfg)$/i;

/** `tokens` in the text that look like repository paths: a slash or a file extension. */
function pathsInText(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const t = m[1]!;
    if (/^[\w.@-]+(?:\/[\w.@-]+)+\/?$/.test(t) || (/^[\w@-][\w.@-]*\.(\w+)$/.test(t) && FILE_EXTENSIONS.test(t))) found.push(t);
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
  let unverified = 0;

  const check = (item: AnswerItem): Verified => {
    const problems: string[] = [];
    const paths = [...new Set([...item.files, ...pathsInText(item.text), ...pathsInText(item.why)])];
    for (const p of paths) if (!pathKnown(p)) problems.push(`${code(p)} is not in git's list or the transcript`);
    for (const q of item.quotes) if (!quoteKnown(q)) problems.push(`the quote "${inline(q)}" is not in the user's messages`);
    for (const c of item.commands_passed) if (!passed.has(c.trim())) problems.push(`no passing run of ${code(c)} in the transcript`);
    if (problems.length) unverified++;
    return { item, problems };
  };
  const sections = Object.fromEntries(Object.entries(TITLES).map(([s]) => [s, answer[s as AnswerSection].map(check)])) as Verification['sections'];
  const pinCandidates = answer.pin_candidates.map((quote) => {
    const problems = quoteKnown(quote) ? [] : ['not the user\'s words verbatim'];
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
  for (const [s, title] of Object.entries(TITLES)) append(title, v.sections[s as AnswerSection].map(renderItem));
  append(
    'Open questions',
    v.pinCandidates.map((p) => redactSecrets(`- Pin candidate (\`handoff pin\` to keep it): "${inline(p.quote)}"${p.problems.length ? ` **[unverified: ${p.problems.join('; ')}]**` : ''}`).text),
  );
  append('References', [`- ${inline(note)}`]);
  return renderBody(body);
}
