// The compaction hooks of every agent that has one: one handoff per compaction, written
// from git and the transcript before the agent summarizes, the summary recorded as due
// (harvest.ts folds it in later), and the answer each agent's summarizer can use: where the
// handoff is, the pins verbatim and the form of the handoff's sections, where it reads the
// hook's output.
import os from 'node:os';
import type { Context } from '../command/context.js';
import { addToSections } from '../handoff/draft-additions.js';
import { compactionStep, type HookInput } from './hook-input.js';
import { HandoffError } from '../core/errors.js';
import { exists } from '../store/fs.js';
import { truncate } from '../command/output.js';
import { answer, harvestSummaries } from './hook-session-start.js';

/**
 * How a compaction hook answers: Claude Code (and our OpenCode plugin) paste stdout as
 * plain text into the summarizer's prompt; Codex CLI, pi and Copilot CLI take JSON; Gemini
 * CLI takes JSON and fires before every model call, so it writes only when a compression is
 * due; Qwen Code adds PreCompact's hookSpecificOutput.additionalContext to the summarizer's
 * instructions.
 */
export type CompactStyle = 'text' | 'json' | 'gemini' | 'qwen';

/** Qwen Code keeps at most this much of PreCompact's additionalContext. */
const QWEN_COMPACT_LIMIT = 4000;

async function preCompact(ctx: Context, input: HookInput, agent: string, style: CompactStyle): Promise<void> {
  if (!(await exists(ctx.dir))) return;
  const compaction = await import('./compaction.js');
  if (style === 'gemini' && input.trigger !== 'manual') {
    // PreCompress fires before every model call; Gemini compresses past its threshold only.
    const tokens = input.transcript_path ? await compaction.lastPromptTokens(input.transcript_path) : undefined;
    const threshold = await compaction.geminiThreshold(ctx.root, os.homedir());
    if (tokens === undefined || tokens < threshold * compaction.GEMINI_WINDOW) return;
  }
  await harvestSummaries(ctx);
  // One compaction, one handoff, however often the agent fires the hook for it.
  let file = await compaction.writtenForCompaction(ctx.root, input.session_id, input.transcript_path);
  let line = `handoff: ${file} was written for this compaction already; nothing new`;
  if (file === undefined) {
    const written = await writeCompactionHandoff(ctx, input, agent);
    if (written === null) return;
    file = ctx.rel(written.file);
    await compaction.rememberCompaction(ctx.root, input.session_id, input.transcript_path, file);
    // The agent's own summary is written after this hook: the next hook folds it in (harvest.ts).
    if (written.transcript)
      await (await import('./harvest.js')).recordDue(ctx, {
        file,
        transcript: written.transcript,
        agent,
        ...(input.session_id ? { session: input.session_id } : {}),
      });
    line = `handoff: wrote ${file} before ${agent} compacts (${input.trigger ?? 'compaction'}); goal: ${truncate(written.goal, 80)}; this step: ${truncate(written.step, 80)}`;
  }
  ctx.stderr(line);
  if (style === 'text' || style === 'qwen') {
    const { loadPins } = await import('../store/store.js');
    const { activePins } = await import('../store/pin-scope.js');
    const pins = activePins((await loadPins(ctx)).items);
    const lines = [`The handoff for the next session is in ${file} (git-handoff); mention that file in the summary.`];
    if (pins.length > 0)
      lines.push(
        'Keep these pinned constraints in the summary verbatim, word for word:',
        ...pins.map((p) => `- ${p.text.trim()}`),
      );
    // The summary comes back into the handoff (harvest.ts) when it has the handoff's sections.
    const { summaryInstructions } = await import('../handoff/summary-form.js');
    const form = summaryInstructions();
    lines.push(form);
    const { redactSecrets } = await import('../security/redact.js');
    const text = redactSecrets(lines.join('\n')).text;
    if (style === 'text') ctx.stdout(`${text}\n`);
    else if (text.length <= QWEN_COMPACT_LIMIT)
      answer(ctx, { hookSpecificOutput: { hookEventName: 'PreCompact', additionalContext: text } });
    else
      answer(ctx, {
        // The form still goes: it is what brings the summary back into the handoff.
        hookSpecificOutput: { hookEventName: 'PreCompact', additionalContext: `${lines[0]}\n${form}` },
        systemMessage: `${line}; the pins are too long for Qwen Code's summarizer instructions (${QWEN_COMPACT_LIMIT.toLocaleString('en-US')} characters): QWEN.md carries them`,
      });
  } else {
    answer(ctx, { systemMessage: line });
  }
}

export const compact = (style: CompactStyle) => (ctx: Context, input: HookInput, agent: string) =>
  preCompact(ctx, input, agent, style);

export async function writeCompactionHandoff(
  ctx: Context,
  input: HookInput,
  agent: string,
): Promise<{ file: string; goal: string; step: string; transcript?: string } | null> {
  // Custom instructions are typed by the user into the agent: they may carry a secret.
  const { redactSecrets } = await import('../security/redact.js');
  const step = redactSecrets(compactionStep(input.custom_instructions, input.session_id)).text;
  // The chain's goal is kept (write.ts); this is said only when nothing knows the user's request.
  const goal = `the work of the agent session${input.session_id ? ` ${input.session_id}` : ''}`;
  const { draftSourcesFor } = await import('./draft-sources.js');
  const sources = await draftSourcesFor(input.transcript_path, agent);
  for (const warning of sources.warnings) ctx.stderr(`handoff: warning: ${warning}`);
  const { writeHandoff } = await import('../handoff/write.js');
  const review = async (_git: unknown, draft: string) => addToSections(draft, sources.sections);
  try {
    // The transcript adds decisions, todos and the user's words; git alone if it cannot be read.
    const written = await writeHandoff(ctx, goal, {
      ...(sources.readable ? { from: input.transcript_path } : {}),
      continuation: { step },
      review,
    });
    if (!written) return null;
    return {
      ...written,
      step,
      ...(sources.readable && input.transcript_path ? { transcript: input.transcript_path } : {}),
    };
  } catch (error) {
    if (!sources.readable || !(error instanceof HandoffError)) throw error;
    ctx.stderr(`handoff: warning: ${error.message}; drafting from git alone`);
    const written = await writeHandoff(ctx, goal, { continuation: { step }, review });
    return written && { ...written, step };
  }
}
