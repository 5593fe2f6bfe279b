// The handoff's sections, each defined once: the template (templates/handoff.md), the
// draft, the living state a child carries, the resume prompt, the roadmap, the model's
// answer and its verification all read this list, so renaming a section is one edit here
// (test/sections.test.ts holds the templates and the sources to that). Pure and without
// imports: the session-start path reads it.
//
// A section's `key` is its name everywhere but the Markdown: the JSON output, the
// template's `{{key}}` placeholder, the model's answer. Its `title` is its level-2 heading.
// What a section means to one reader (a budget in the resume prompt, where an agent's own
// summary goes) belongs here as one more field, so every reader sees the same.

export interface SectionSpec {
  readonly key: string;
  readonly title: string;
  /**
   * How the next handoff of a chain continues it: `items` are carried and reconciled
   * (handoff/living.ts), `notes` keep the parent's level-3 subsections the new session
   * does not rewrite, `false` is written afresh each time.
   */
  readonly carry: 'items' | 'notes' | false;
  /** Its place in the resume prompt (1 first): what a next session needs soonest. */
  readonly resume: number;
  /** The model may add items to it (its answer has a list under `key`). */
  readonly model: boolean;
  /**
   * Its claim on the resume prompt's token budget (resume/budget.ts; 0: always whole):
   * sections are filled in this order, and what does not fit is counted, not shown.
   */
  readonly budget: number;
}

/** In the order of the handoff file. */
export const SECTIONS = [
  { key: 'goal', title: 'Goal', carry: false, resume: 1, model: false, budget: 0 },
  { key: 'completed', title: 'Completed', carry: 'items', resume: 8, model: true, budget: 7 },
  { key: 'current_state', title: 'Current state', carry: 'notes', resume: 7, model: false, budget: 6 },
  { key: 'in_progress', title: 'In progress', carry: 'items', resume: 3, model: true, budget: 1 },
  { key: 'next_steps', title: 'Next steps', carry: 'items', resume: 2, model: true, budget: 5 },
  { key: 'open_questions', title: 'Open questions', carry: 'items', resume: 4, model: true, budget: 3 },
  { key: 'decisions', title: 'Decisions', carry: 'items', resume: 5, model: true, budget: 2 },
  { key: 'tried', title: 'Tried and abandoned', carry: 'items', resume: 6, model: false, budget: 4 },
  { key: 'references', title: 'References', carry: false, resume: 9, model: false, budget: 8 },
] as const satisfies readonly SectionSpec[];

type Spec = (typeof SECTIONS)[number];
export type SectionKey = Spec['key'];
/** Sections whose list items a child handoff carries and reconciles. */
export type CarriedKey = Extract<Spec, { carry: 'items' }>['key'];
/** Sections the model may write. */
export type ModelKey = Extract<Spec, { model: true }>['key'];
/** Sections the resume prompt takes from the handoff's body (the goal comes from its front-matter). */
export type BodyKey = Exclude<SectionKey, 'goal'>;

/** Each section's heading, by key. */
export const TITLE = Object.fromEntries(SECTIONS.map((s) => [s.key, s.title])) as Record<SectionKey, string>;

const keysWhere = <K extends SectionKey>(test: (s: Spec) => boolean): readonly K[] =>
  SECTIONS.filter(test).map((s) => s.key as K);

/** In file order. */
export const CARRIED_KEYS = keysWhere<CarriedKey>((s) => s.carry === 'items');
/** In file order: the order of the model's answer. */
export const MODEL_KEYS = keysWhere<ModelKey>((s) => s.model);
/** In the order the resume prompt's budget is filled (the goal, always whole, first). */
export const BUDGET_KEYS: readonly SectionKey[] = [...SECTIONS].sort((a, b) => a.budget - b.budget).map((s) => s.key);
/** In the resume prompt's order. */
export const RESUME_KEYS: readonly SectionKey[] = [...SECTIONS].sort((a, b) => a.resume - b.resume).map((s) => s.key);
/** What the roadmap shows of an open handoff's body, in its order (the file has the rest). */
export const ROADMAP_KEYS = ['next_steps', 'open_questions'] as const satisfies readonly SectionKey[];
