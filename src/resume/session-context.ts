// What a session-start hook hands the agent. Claude Code cuts hook output above 10,000
// characters to a short preview without telling the agent (Gemini CLI gets the same
// budget, as its own limit is not documented), so a long resume
// prompt is never passed whole and hoped for: it is replaced by the parts a session
// cannot start without (pins verbatim, goal, next steps) plus an explicit pointer to the
// rest. Pins are never shortened; when even they do not fit, the agent is told to read
// them itself, with their count, so nothing is dropped without a word.
import type { ResumeParts } from './prompt.js';
import { code } from '../handoff/files.js';

export const SESSION_CONTEXT_LIMIT = 10_000;

export interface SessionContext {
  text: string;
  /** 'full' when the whole prompt fits; otherwise which reduced form was sent. */
  form: 'full' | 'pins-goal-next' | 'pins-goal' | 'pointer';
}

function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((r) => r.trim().length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
}

export function sessionContext(prompt: string, parts: ResumeParts, limit = SESSION_CONTEXT_LIMIT): SessionContext {
  if (prompt.length <= limit) return { text: prompt, form: 'full' };
  const size = prompt.length.toLocaleString('en-US');
  const pointer = (left: string) =>
    `The full resume prompt (${size} characters) is longer than this hook can pass, so ${left} ` +
    `Before you start, read the handoff file ${code(parts.file)} or run \`handoff resume\` and read its whole output.`;
  const intro =
    'You are continuing work that an earlier agent session began in this repository. ' +
    'The constraints under "Pinned constraints" are the user\'s own words; follow them exactly, as written.';
  const pins = parts.pins.length
    ? `## Pinned constraints\n\n${parts.pins.map((p) => `### Pin ${p.id}${p.scope ? ` (applies to ${p.scope.map(code).join(', ')})` : ''}\n\n${fence(p.text)}`).join('\n\n')}`
    : '';
  const goal = `## Goal\n\n${fence(parts.goal)}`;
  const next = parts.next_steps ? `## Next steps\n\n${parts.next_steps}` : '';
  const join = (...blocks: string[]) => `${blocks.filter(Boolean).join('\n\n')}\n`;
  const candidates: Array<[SessionContext['form'], string]> = [
    ['pins-goal-next', join(intro, pins, goal, next, pointer('only the pins, the goal and the next steps are here; the rest (decisions, state, files, what changed since) is not.'))],
    ['pins-goal', join(intro, pins, goal, pointer('only the pins and the goal are here; the next steps and the rest are not.'))],
  ];
  for (const [form, text] of candidates) if (text.length <= limit) return { text, form };
  const count = parts.pins.length;
  return {
    form: 'pointer',
    text: join(
      `A handoff from an earlier session exists (${parts.id}), but even its ${count} pinned constraint${count === 1 ? '' : 's'} ` +
        `and goal are too long for this hook. ${pointer('nothing of it is here.')} Follow the pinned constraints in it exactly, as written.`,
    ),
  };
}
