// The deterministic draft: what git and the parent handoff know, and what a transcript
// adds, with no model. Every line traces to a commit, a file change, a transcript line, or
// the parent's own text (living.ts carries and reconciles the parent's state).
import type { Handoff, FileChange } from '../store/handoff.js';
import { renderFileGroups } from '../store/file-groups.js';
import { code, escapeBlock, inline, ownSections } from '../store/markdown.js';
import { carryForward, itemsOf, subsections, type Fresh } from './living.js';
import { fill } from '../store/template.js';
import type { DraftParts } from '../transcripts/transcript-draft.js';
import type { SectionKey } from '../store/sections.js';

export interface DraftInput {
  goal: string;
  files: readonly FileChange[];
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  parent: Handoff | undefined;
  parentFile?: string;
  base: string | null;
  /** What a transcript adds (transcripts/transcript-draft.ts), section by section. */
  extraction?: DraftParts;
  /** What the chain already counted as completed (living.ts chainCompleted). */
  chainDone?: ReadonlySet<string>;
  /** The active pins' texts: a pin candidate already pinned is not offered again. */
  pinned?: readonly string[];
}

/** The draft, and what it carried from the parent (for the one line `new` prints). */
export function draft(template: string, input: DraftInput): { body: string; carried: number; superseded: number } {
  const completed = input.commits.map((c) => `- ${inline(c.subject)} (${c.hash.slice(0, 7)})`);
  const references: string[] = [];
  if (input.parent) {
    references.push(
      `- Continues handoff ${input.parent.meta.id}${input.parentFile ? ` (${code(input.parentFile)})` : ''}: ${inline(input.parent.meta.goal)}`,
    );
  }
  if (input.base) references.push(`- Files and commits are counted from ${input.base.slice(0, 12)}.`);
  const x = input.extraction;
  const fresh: Fresh = {
    completed: itemsOf([...completed, ...(x?.completed ?? [])]),
    in_progress: itemsOf(x?.in_progress ?? []),
    next_steps: itemsOf(x?.next_steps ?? []),
    open_questions: itemsOf(x?.open_questions ?? []),
    decisions: itemsOf(x?.decisions ?? []),
    tried: itemsOf(x?.tried ?? []),
    passed: x?.passed ?? [],
    currentState: x && x.current_state.length > 0 ? subsections(x.current_state.join('\n')) : [],
  };
  const parent = input.parent
    ? {
        id: input.parent.meta.id,
        body: input.parent.body,
        files: input.parent.meta.files.map((f) => f.path),
        ...(input.chainDone ? { done: input.chainDone } : {}),
      }
    : undefined;
  const living = carryForward(
    parent,
    fresh,
    input.files.map((f) => f.path),
    input.pinned ?? [],
  );
  const state = [renderFileGroups(input.files), living.currentState].filter((s) => s !== '');
  // Every section of the schema, by the template's placeholders (its keys).
  const values: Record<SectionKey, string> = {
    goal: escapeBlock(input.goal),
    ...living.sections,
    current_state: state.join('\n\n'),
    references: [...references, ...(x?.references ?? [])].join('\n'),
  };
  // The parent's sections of its writer's own titles go on as written: nothing else reads
  // them, and a next session would not see them otherwise.
  const own = input.parent ? ownSections(input.parent.body) : [];
  const filled = fill(template, values);
  const body =
    own.length === 0
      ? filled
      : `${filled.replace(/\s+$/, '')}\n\n${own.map((s) => `${s.heading}${s.content.replace(/\s+$/, '')}\n`).join('\n')}`;
  return { body, carried: living.carried, superseded: living.superseded };
}

/** What the editor gave back, minus our instructions; empty means "abort". */
export function editedBody(edited: string, instructions: string): string {
  const body = edited.startsWith(instructions) ? edited.slice(instructions.length) : edited;
  return body.trim() === '' ? '' : body.replace(/^\n+/, '');
}
