// What a session-start hook hands the agent. Claude Code cuts hook output above 10,000
// characters to a short preview without telling the agent (Gemini CLI gets the same
// budget, as its own limit is not documented), so a long resume prompt is never passed
// whole and hoped for: it is replaced by the parts a session cannot start without plus an
// explicit pointer to the rest. Pins come first, each verbatim, shortest first; only a
// pin that alone cannot fit is replaced by a pointer to its file, so one long pin never
// costs the agent the short ones. Nothing is dropped without a word.
import { renderPin, type PromptPin, type ResumeParts } from './prompt.js';
import { code, thousands } from '../store/markdown.js';
import { TITLE } from '../store/sections.js';
import { provenanceNote } from './provenance.js';

export const SESSION_CONTEXT_LIMIT = 10_000;

export interface SessionContext {
  text: string;
  /** 'full' when the whole prompt fits; otherwise which reduced form was sent. */
  form: 'full' | 'pins-goal-next' | 'pins-goal' | 'pins' | 'pointer';
  /** Pins replaced by a pointer to their file because one alone did not fit. */
  pointedPins: number;
}

function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((r) => r.trim().length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
}

const pinPointer = (p: PromptPin) =>
  `### Pin ${p.id}\n\nThis pin is too long to pass here (${thousands(p.text.length)} characters). Read ${code(p.file)} now and follow it exactly, as written.`;

/** The pins within `budget` characters: verbatim, shortest first, a pointer for each that does not fit. */
export function fitPins(pins: readonly PromptPin[], budget: number): { text: string; pointed: number } | null {
  const sorted = [...pins].sort((a, b) => a.text.length - b.text.length);
  const sep = 2;
  const heading = '## Pinned constraints\n\n';
  // Every pin is at least a pointer: reserve that much for the ones not placed yet.
  let reserve = sorted.reduce((n, p) => n + pinPointer(p).length + sep, heading.length);
  if (sorted.length > 0 && reserve > budget) return null;
  const blocks: string[] = [];
  let used = 0;
  let pointed = 0;
  for (const p of sorted) {
    const pointer = pinPointer(p);
    reserve -= pointer.length + sep;
    const whole = renderPin(p);
    const block = used + whole.length + sep + reserve + heading.length <= budget ? whole : pointer;
    if (block === pointer) pointed++;
    blocks.push(block);
    used += block.length + sep;
  }
  return { text: blocks.length > 0 ? `${heading}${blocks.join('\n\n')}` : '', pointed };
}

export function sessionContext(prompt: string, parts: ResumeParts, limit = SESSION_CONTEXT_LIMIT): SessionContext {
  if (prompt.length <= limit) return { text: prompt, form: 'full', pointedPins: 0 };
  const size = thousands(prompt.length);
  const where = parts.file
    ? `read the handoff file ${code(parts.file)} or run \`handoff resume\` and read its whole output`
    : 'run `handoff resume` and read its whole output';
  const pointer = (left: string) =>
    `The full resume prompt (${size} characters) is longer than this hook can pass, so ${left} Before you start, ${where}.`;
  const intro =
    (parts.from ? `${provenanceNote(parts.from)}\n\n` : '') +
    (parts.id ? 'You are continuing work that an earlier agent session began in this repository. ' : '') +
    'The constraints under "Pinned constraints" are the user\'s own words; follow them exactly, as written.';
  const goal = parts.id ? `## ${TITLE.goal}\n\n${fence(parts.goal)}` : '';
  const next = parts.next_steps ? `## ${TITLE.next_steps}\n\n${parts.next_steps}` : '';
  const join = (...blocks: string[]) => `${blocks.filter(Boolean).join('\n\n')}\n`;
  const rest = parts.id ? 'the rest (decisions, state, files, what changed since) is not.' : 'the rest is not.';
  const candidates: Array<[SessionContext['form'], string[], string]> = [
    ['pins-goal-next', [goal, next], pointer(`only the pins, the goal and the next steps are here; ${rest}`)],
    ['pins-goal', [goal], pointer(`only the pins and the goal are here; the next steps and ${rest}`)],
    ['pins', [], pointer(`only the pins are here; ${rest}`)],
  ];
  for (const [form, blocks, tail] of candidates) {
    if (!parts.id && form !== 'pins') continue; // a pins-only prompt has no goal or steps
    const fixed = join(intro, ...blocks, tail).length + 2;
    const pins = fitPins(parts.pins, limit - fixed);
    if (!pins) continue;
    const text = join(intro, pins.text, ...blocks, tail);
    if (text.length <= limit) return { text, form, pointedPins: pins.pointed };
  }
  const count = parts.pins.length;
  return {
    form: 'pointer',
    pointedPins: count,
    text: join(
      `${parts.id ? `A handoff from an earlier session exists (${parts.id}), but even pointers to its` : 'Even pointers to the'} ${count} pinned constraint${count === 1 ? '' : 's'} ` +
        `are too long for this hook. ${pointer('nothing of it is here.')} Follow the pinned constraints in it exactly, as written.`,
    ),
  };
}
