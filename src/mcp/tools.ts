// What each MCP tool does, over the same code the commands use: `resume` prints what
// `handoff resume` prints, `pins` the active pins byte for byte, `search` past handoffs,
// `new` writes a handoff from a goal and section texts merged into the draft (which carries
// the open handoff's state), like `handoff new` with a reviewed body.
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { SECTIONS } from '../store/sections.js';
import { loadHandoffs, loadPins } from '../store/store.js';
import { activePins } from '../store/pin-scope.js';
import { checkText } from '../store/input.js';
import { renderHit, searchHandoffs } from './search.js';

/** A tool's answer: its text, and whether it is an error the agent should read as one. */
export interface ToolAnswer {
  text: string;
  isError?: boolean;
}

async function answering(run: () => Promise<string>): Promise<ToolAnswer> {
  try {
    return { text: await run() };
  } catch (error) {
    if (error instanceof HandoffError) return { text: `handoff: ${error.message}`, isError: true };
    throw error;
  }
}

export function resume(ctx: Context): Promise<ToolAnswer> {
  return answering(async () => {
    const { buildResume } = await import('../resume/build.js');
    return (await buildResume(ctx, undefined)).prompt;
  });
}

export function pins(ctx: Context): Promise<ToolAnswer> {
  return answering(async () => {
    const active = activePins((await loadPins(ctx)).items);
    if (active.length === 0) return 'No active pins.';
    // Byte for byte, each fenced so a pin with Markdown in it stays whole.
    const { promptPins, renderPin } = await import('../resume/prompt.js');
    return promptPins(active).map(renderPin).join('\n\n');
  });
}

export function search(ctx: Context, query: string): Promise<ToolAnswer> {
  return answering(async () => {
    const hits = searchHandoffs((await loadHandoffs(ctx)).items, query);
    if (hits.length === 0) return `No handoff mentions all of: ${query}`;
    const { redactSecrets } = await import('../security/redact.js');
    return redactSecrets(hits.map(renderHit).join('\n')).text;
  });
}

/** Section names the `new` tool takes: the schema's keys or titles. */
export const SECTION_NAMES = SECTIONS.filter((s) => s.key !== 'goal').map((s) => s.key);

export function newHandoff(ctx: Context, goal: string, sections: Record<string, string>): Promise<ToolAnswer> {
  return answering(async () => {
    const additions: Record<string, string[]> = {};
    for (const [name, text] of Object.entries(sections)) {
      const section = SECTIONS.find(
        (s) => s.key !== 'goal' && (s.key === name || s.title.toLowerCase() === name.toLowerCase()),
      );
      if (!section) throw new UsageError(`no section '${name}'; expected one of ${SECTION_NAMES.join(', ')}`);
      if (text.trim() !== '') additions[section.title] = text.replace(/\s+$/, '').split('\n');
    }
    const { writeHandoff } = await import('../handoff/write.js');
    const { addToSections } = await import('../handoff/draft-additions.js');
    const written = await writeHandoff(ctx, checkText(goal, 'the goal'), {
      review: async (_git, draft) => addToSections(draft, additions),
    });
    return written === null ? 'Nothing written.' : `Wrote ${ctx.rel(written.file)}`;
  });
}
