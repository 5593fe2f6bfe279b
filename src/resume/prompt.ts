// The resume prompt: what a fresh agent reads first. Pins verbatim, then the handoff's
// own sections in the order a next session needs them, then what git says has
// happened since. Built from data only; the command gathers the data.
import type { FileChange, Handoff } from '../store/handoff.js';
import { renderFileGroups } from '../store/file-groups.js';
import { code, fenced, inline, ownSections, pinBlock, plural, sectionContent, sectionText } from '../store/markdown.js';
import { fitBudget, mostTokens } from './budget.js';
import type { Pin } from '../store/pin.js';
import { fill } from '../store/template.js';
import { renderSince, type SinceFacts } from './since.js';
import { RESUME_KEYS, TITLE, type BodyKey } from '../store/sections.js';

export type { SinceFacts } from './since.js';

export interface PromptPin {
  id: string;
  /** The pin's file, repository-relative: where an agent reads a pin too long to pass. */
  file: string;
  text: string;
  scope?: string[];
}

/** The handoff's sections but the goal, by key (store/sections.ts), in the prompt's order. */
export type SectionParts = Record<BodyKey, string>;

export interface ResumeParts extends SectionParts {
  /** The handoff resumed; null for a pins-only prompt (no open handoff). */
  id: string | null;
  file: string | null;
  goal: string;
  /** What the handoff's writer put before its first heading, as written. */
  notes: string;
  /** What this step was for, when a compaction wrote it (the goal stays the chain's). */
  step?: string;
  pins: PromptPin[];
  /** The handoff's files; the prompt shows them grouped (Source, Tests, ...). */
  files: FileChange[];
  since: SinceFacts;
  /** Why there is no handoff in a pins-only prompt. */
  reason?: string;
  /** Who committed the handoff, when that is someone other than the current user (provenance.ts). */
  from?: string;
}

export const promptPins = (pins: readonly Pin[]): PromptPin[] =>
  pins.map((p) => ({ id: p.meta.id, file: p.file, text: p.text, ...(p.meta.scope ? { scope: p.meta.scope } : {}) }));

/** What git says happened since, when there is no handoff (or no git answer) to compare with. */
export const nothingSince = (): SinceFacts => ({
  head: null,
  headFound: false,
  commits: [],
  commitCount: 0,
  changedFiles: [],
  stillUncommitted: [],
  missingFiles: [],
});

/** The parts of a prompt with no handoff: the pins alone, and why. */
export function pinsOnlyParts(pins: readonly Pin[], reason: string): ResumeParts {
  const since = nothingSince();
  const empty = sectionParts(() => '');
  return { id: null, file: null, goal: '', notes: '', pins: promptPins(pins), ...empty, files: [], since, reason };
}

/** One pin as the prompt shows it: its id, its scope, its text fenced verbatim. */
export function renderPin(p: PromptPin): string {
  return pinBlock(p.id, p.text, p.scope);
}

/**
 * The decisions an agent must follow: superseded ones are not shown as current, only
 * named in one line (the handoff file keeps their text), so the prompt does not grow
 * with every replaced decision.
 */
export function currentDecisions(text: string): string {
  const superseded: Array<readonly [number, string]> = [];
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^- ~~(D\d+):.*~~ \(superseded by (D\d+)/.exec(line);
    if (m) superseded.push([Number(m[1]!.slice(1)), `${m[1]} (by ${m[2]})`] as const);
    else if (!/^- \u2026 \d+ earlier superseded decisions/.test(line)) kept.push(line); // escaped: see budget.ts FOLDED
  }
  if (superseded.length > 0)
    kept.push(
      `- Superseded, no longer current: ${superseded
        .sort((a, b) => a[0] - b[0])
        .map((x) => x[1])
        .join(', ')}; their text is in the handoff file.`,
    );
  return kept.join('\n').trim();
}

export function resumeParts(handoff: Handoff, pins: readonly Pin[], since: SinceFacts): ResumeParts {
  return { ...handoffParts(handoff), pins: promptPins(pins), since };
}

/** The parts the handoff alone gives: all but the pins in play and what git says happened since. */
export function handoffParts(handoff: Handoff): Omit<ResumeParts, 'pins' | 'since'> {
  const sections = sectionParts((key) => sectionText(sectionContent(handoff.body, TITLE[key]) ?? ''));
  sections.decisions = currentDecisions(sections.decisions);
  // A draft lists the files under Current state; they are shown once, under Files.
  sections.current_state = sections.current_state.replace(renderFileGroups(handoff.meta.files), '').trim();
  // Text before the first heading, and the sections of the writer's own titles, as written.
  const own = ownSections(handoff.body).map((s) => `### ${s.title}\n\n${sectionText(s.content)}`);
  const notes = [sectionText(handoff.body.preamble), ...own].filter((t) => t !== '').join('\n\n');
  return {
    id: handoff.meta.id,
    file: handoff.file,
    goal: handoff.meta.goal,
    ...(handoff.meta.step ? { step: handoff.meta.step } : {}),
    notes,
    ...sections,
    files: handoff.meta.files,
  };
}

/** One value per body section, in the prompt's order (so --json lists them in that order). */
function sectionParts(value: (key: BodyKey) => string): SectionParts {
  const parts = {} as SectionParts;
  for (const key of RESUME_KEYS) if (key !== 'goal') parts[key] = value(key);
  return parts;
}

const goalText = (parts: ResumeParts) =>
  `${fenced(parts.goal)}${parts.step ? `\n\nThis step: ${inline(parts.step)}` : ''}`;

export interface PromptBudget {
  /** Tokens past the pins (config resume_tokens). */
  tokens: number;
  /** Never more than the text's length: a prompt with fewer characters than the budget is not counted. */
  count: (text: string) => number;
}

/** The prompt; with a budget, the handoff's sections are cut to it (budget.ts) and what is left out is counted. */
export function renderResume(template: string, parts: ResumeParts, budget?: PromptBudget): string {
  const block = (title: string, text: string) => (text ? `## ${title}\n\n${text}` : '');
  const pins = parts.pins.map(renderPin).join('\n\n');
  const whole = { ...sectionParts((key) => parts[key]), files: renderFileGroups(parts.files) };
  const lead = `${goalText(parts)}\n${parts.notes}`;
  // Counting is the costly part of a session start's prompt, and a prompt is often short.
  const shown =
    budget && lead.length + mostTokens(whole) > budget.tokens
      ? fitBudget(
          whole,
          budget.tokens - budget.count(lead),
          budget.count,
          // Short: the prompt's last line names the handoff file.
          (n) => `- … ${plural(n, 'more item')} in the handoff file`,
        ).parts
      : whole;
  return fill(template, {
    pins: block('Pinned constraints', pins),
    notes: block('Notes', parts.notes),
    ...Object.fromEntries(
      RESUME_KEYS.map((key) => [key, block(TITLE[key], key === 'goal' ? goalText(parts) : shown[key])]),
    ),
    files: block('Files', shown.files),
    since: block('Since the handoff', renderSince(parts.since)),
    source: `(Handoff ${parts.id}, ${code(parts.file ?? '')}. Run \`handoff new "<next goal>"\` before you stop or your context fills.)`,
  });
}

/** The prompt when no handoff is open: the pins, verbatim, and why there is nothing else. */
export function renderPinsOnly(template: string, parts: ResumeParts, notes: readonly string[]): string {
  return fill(template, {
    notes: notes.join('\n'),
    reason: `(There is ${parts.reason ?? 'no open handoff'}: this session starts without one. Ask the user what to work on if they have not said.)`,
    pins: parts.pins.length > 0 ? `## Pinned constraints\n\n${parts.pins.map(renderPin).join('\n\n')}` : '',
  });
}
