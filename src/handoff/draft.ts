// The deterministic draft: what git and the parent handoff know, with no model and no
// transcript. Every line traces to a commit, a file change, or the parent's own text.
import type { Handoff, FileChange } from '../store/handoff.js';
import { code, renderFileGroups } from './files.js';
import { escapeBlock, findSection, inline, listItems } from '../store/markdown.js';
import { fill } from '../store/template.js';
import type { DraftParts } from '../transcripts/transcript-draft.js';

export interface DraftInput {
  goal: string;
  files: readonly FileChange[];
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  parent: Handoff | undefined;
  parentFile?: string;
  base: string | null;
  /** What a transcript adds (transcripts/transcript-draft.ts), section by section. */
  extraction?: DraftParts;
}

const join = (...lists: string[][]) => lists.flat().join('\n');

/** Unfinished items of a section of the parent: unchecked list items, text as written. */
function carried(parent: Handoff | undefined, title: string): string[] {
  const section = parent && findSection(parent.body, title);
  if (!section) return [];
  return listItems(section.content)
    .filter((i) => !i.checked && i.text !== '')
    .map((i) => `- ${i.text}`);
}

export function draftBody(template: string, input: DraftInput): string {
  const completed = input.commits.map((c) => `- ${inline(c.subject)} (${c.hash.slice(0, 7)})`);
  const references: string[] = [];
  if (input.parent) {
    references.push(`- Continues handoff ${input.parent.meta.id}${input.parentFile ? ` (${code(input.parentFile)})` : ''}: ${inline(input.parent.meta.goal)}`);
  }
  if (input.base) references.push(`- Files and commits are counted from ${input.base.slice(0, 12)}.`);
  const x = input.extraction;
  const state = [renderFileGroups(input.files), ...(x && x.current_state.length > 0 ? [x.current_state.join('\n')] : [])].filter((s) => s !== '');
  return fill(template, {
    goal: escapeBlock(input.goal),
    completed: join(completed, x?.completed ?? []),
    current_state: state.join('\n\n'),
    in_progress: join(x?.in_progress ?? []),
    next_steps: join(carried(input.parent, 'Next steps'), x?.next_steps ?? []),
    open_questions: join(carried(input.parent, 'Open questions'), x?.open_questions ?? []),
    decisions: join(x?.decisions ?? []),
    references: join(references, x?.references ?? []),
  });
}

/** What the editor gave back, minus our instructions; empty means "abort". */
export function editedBody(edited: string, instructions: string): string {
  const body = edited.startsWith(instructions) ? edited.slice(instructions.length) : edited;
  return body.trim() === '' ? '' : body.replace(/^\n+/, '');
}
