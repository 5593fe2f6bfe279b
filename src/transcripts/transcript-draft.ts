// What a transcript adds to the deterministic draft, as Markdown lines per section.
// Quotes stay verbatim (folded to one line, redacted already) and name their line in
// the transcript, so the user can check each one in the editor.
import path from 'node:path';
import type { FileChange } from '../store/handoff.js';
import type { Extraction, Quoted } from './extract.js';
import { code, escapeBlock, inline } from '../store/markdown.js';
import { redactSecrets } from '../security/redact.js';
import type { BodyKey } from '../store/sections.js';

export interface TranscriptDraft {
  extraction: Extraction;
  /** The transcript as the user should see it named (relative or ~-based). */
  source: string;
  /** Recent user turns already trimmed to the budget. */
  recent: { kept: Quoted[]; tokens: number; budget: number; dropped: number };
}

/** Lines per section of the handoff's body (store/sections.ts), by key. */
export interface DraftParts extends Record<BodyKey, string[]> {
  /** Approaches that failed: commands whose last run failed, edits git shows undone. */
  tried: string[];
  /** Commands whose last run passed, as shown (`npm test`): an earlier failure of one is no longer abandoned. */
  passed: string[];
}

/** A transcript path relative to the repository, or undefined when it lies outside. */
export function repoPath(p: string, cwd: string | undefined, root: string): string | undefined {
  if (p.startsWith('~')) return undefined;
  const abs = path.isAbsolute(p) ? p : path.resolve(cwd ?? root, p);
  // A session used with --force ran elsewhere: its own directory stands for the repository.
  for (const base of cwd === undefined ? [root] : [root, cwd]) {
    const rel = path.relative(base, abs);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return undefined;
}

const quote = (q: Quoted) => `"${inline(q.text)}"`;
const at = (line: number) => `transcript line ${line}`;

export function transcriptParts(t: TranscriptDraft, root: string, gitFiles: readonly FileChange[]): DraftParts {
  const ex = t.extraction;
  const parts: DraftParts = {
    completed: [],
    in_progress: [],
    next_steps: [],
    open_questions: [],
    decisions: [],
    current_state: [],
    tried: [],
    passed: [],
    references: [],
  };
  if (ex.todos) {
    for (const item of ex.todos.items) {
      const line = `- ${inline(item.text)} (todo, ${at(ex.todos.line)})`;
      if (item.status === 'completed') parts.completed.push(line);
      else if (item.status === 'in_progress') parts.in_progress.push(line);
      else parts.next_steps.push(line);
    }
  }
  for (const c of ex.constraints)
    parts.open_questions.push(`- Pin candidate (the user's words, ${at(c.line)}): ${quote(c)}`);
  for (const q of ex.questions)
    parts.open_questions.push(`- ${quote(q)} (asked by the agent, ${at(q.line)}; not answered in the session)`);
  for (const r of ex.rejections)
    parts.tried.push(`- The user turned down what the agent had just done: ${quote(r)} (${at(r.line)})`);
  for (const a of ex.abandoned) parts.tried.push(`- The agent gave up an approach: ${quote(a)} (${at(a.line)})`);
  for (const d of ex.decisions)
    parts.decisions.push(
      `- ${quote(d)} (extracted from ${at(d.line)}${d.supersedes?.length ? `; supersedes ${d.supersedes.join(', ')}` : ''}; confirm or delete)`,
    );

  const inGit = new Set(gitFiles.map((f) => f.path));
  const untouched: string[] = [];
  for (const f of ex.files) {
    const rel = repoPath(f.path, ex.cwd ?? root, root);
    if (rel === undefined || rel.startsWith('.handoff/') || inGit.has(rel)) continue;
    untouched.push(
      `- ${code(rel)} (${f.change === 'create' ? 'written' : f.change === 'delete' ? 'deleted' : f.change === 'rename' ? 'renamed' : 'edited'} in the session, ${at(f.line)}; git shows it unchanged: reverted, or committed before the base)`,
    );
  }
  if (untouched.length > 0) parts.current_state.push('### Edited in the session, unchanged in git', '', ...untouched);
  if (ex.commands.length > 0) {
    if (parts.current_state.length > 0) parts.current_state.push('');
    parts.current_state.push('### Last test and build runs', '');
    for (const c of ex.commands) if (c.passed === true) parts.passed.push(code(c.command));
    for (const c of ex.commands)
      if (c.passed === false)
        parts.tried.push(`- ${code(c.command)} failed and was not run green afterwards (${at(c.line)})`);
    for (const c of ex.commands)
      parts.current_state.push(
        `- ${code(c.command)}: ${c.passed === undefined ? 'result not recorded' : c.passed ? 'passed' : 'failed'} (${c.subagent ? 'run by a subagent, ' : ''}${at(c.line)})`,
      );
  }

  parts.references.push(
    `- Transcript: ${code(t.source)} (${ex.agent}${ex.sessionId ? `, session ${ex.sessionId}` : ''}${ex.last ? `, last activity ${ex.last}` : ''}); items marked with a line number were extracted from it.`,
  );
  if (ex.counts.sidechainEvents > 0)
    parts.references.push(
      `- ${ex.counts.sidechainEvents} event${ex.counts.sidechainEvents === 1 ? '' : 's'} came from subagents (sidechains): their files and commands are listed above, their text is not quoted.`,
    );
  if (ex.redactions > 0)
    parts.references.push(
      `- ${ex.redactions} secret${ex.redactions === 1 ? '' : 's'} redacted from the transcript text.`,
    );
  if (ex.plan)
    parts.references.push(
      `- The last approved plan (${at(ex.plan.line)}):`,
      '',
      ...escapeBlock(ex.plan.text.trim())
        .split('\n')
        .map((l) => (l === '' ? '>' : `> ${l}`)),
      '',
    );
  const r = t.recent;
  if (r.kept.length > 0) {
    parts.references.push(
      `- The latest user messages, verbatim (${r.kept.length} message${r.kept.length === 1 ? '' : 's'}, ${r.tokens} tokens; budget ${r.budget}${r.dropped > 0 ? `; ${r.dropped} older left out` : ''}):`,
      '',
    );
    for (const q of r.kept)
      parts.references.push(
        `  ${at(q.line)}:`,
        '',
        ...escapeBlock(q.text.trim())
          .split('\n')
          .map((l) => (l === '' ? '  >' : `  > ${l}`)),
        '',
      );
  }
  while (parts.references.at(-1) === '') parts.references.pop();
  // Paths, commands and ids pass through redaction too: nothing from a transcript is written unchecked.
  for (const key of Object.keys(parts) as Array<keyof DraftParts>)
    parts[key] = parts[key].map((line) => redactSecrets(line).text);
  return parts;
}
