// `handoff hook <name>`: the entry points agents call. Each reads the agent's JSON on
// stdin and answers on stdout in that agent's format, and nothing else goes to stdout
// (Gemini CLI parses all of it as JSON). These run on every session start: only the
// modules `handoff resume` needs are loaded (no yargs, remark, openai or tokenizer), and
// the command is marked fail-open in spec.ts, so an internal error is a warning on
// stderr and exit 0: a broken handoff never stops an agent from starting.
import os from 'node:os';
import { HOOK_NAMES, type ArgsOf, type HookName, type Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { addToSections } from '../handoff/draft-additions.js';
import { compactionStep, parseHookInput, type HookInput } from './hook-input.js';
import { sessionContext } from '../resume/session-context.js';
import { buildResume } from '../resume/build.js';
import { BudgetSpent, sessionBudgetMs, within } from '../resume/time-budget.js';
import { HandoffError } from '../core/errors.js';
import { exists } from '../store/fs.js';
import { truncate } from '../command/output.js';
import { harvestIsDue } from './harvest-due.js';

interface HookSpec {
  agent: string;
  run: (ctx: Context, input: HookInput, agent: string) => Promise<void>;
}

const compact = (style: CompactStyle) => (ctx: Context, input: HookInput, agent: string) =>
  preCompact(ctx, input, agent, style);

/** A session start that also brings the pins in an instruction file's block up to date. */
const startWithPins =
  (file: string, style: StartStyle = 'claude') =>
  async (ctx: Context, input: HookInput, agent: string) => {
    await refreshPins(ctx, file);
    await sessionStart(ctx, input, agent, style);
  };

const HOOKS: Record<HookName, HookSpec> = {
  'claude-session-start': { agent: 'Claude Code', run: sessionStart },
  'claude-pre-compact': { agent: 'Claude Code', run: compact('text') },
  'claude-meter': { agent: 'Claude Code', run: meter },
  'codex-session-start': { agent: 'Codex CLI', run: sessionStart },
  'codex-pre-compact': { agent: 'Codex CLI', run: compact('json') },
  'gemini-session-start': { agent: 'Gemini CLI', run: startWithPins('GEMINI.md') },
  'gemini-pre-compress': { agent: 'Gemini CLI', run: compact('gemini') },
  'opencode-session-start': { agent: 'OpenCode', run: sessionStart },
  'opencode-pre-compact': { agent: 'OpenCode', run: compact('text') },
  'pi-session-start': { agent: 'pi', run: sessionStart },
  'pi-pre-compact': { agent: 'pi', run: compact('json') },
  probe: { agent: '', run: probeAnswer },
  'kilo-session-start': { agent: 'Kilo', run: sessionStart },
  'kilo-pre-compact': { agent: 'Kilo', run: compact('text') },
  'copilot-session-start': {
    agent: 'Copilot CLI',
    run: startWithPins('.github/copilot-instructions.md', 'copilot'),
  },
  'copilot-pre-compact': { agent: 'Copilot CLI', run: compact('json') },
  'qwen-session-start': { agent: 'Qwen Code', run: startWithPins('QWEN.md') },
  'qwen-pre-compact': { agent: 'Qwen Code', run: compact('qwen') },
  'cline-task-start': { agent: 'Cline', run: clineTaskStart },
  'cline-task-complete': { agent: 'Cline', run: clineTaskComplete },
};

/** `agent install` and `agent status` run the hook command with this: which CLI it reached, nothing changed. */
async function probeAnswer(ctx: Context): Promise<void> {
  const { version } = await import('../core/version.js');
  const { currentCli } = await import('../git-hooks/hook-files.js');
  answer(ctx, { probe: 'ok', version: version(), bin: currentCli().bin });
}

/**
 * How a compaction hook answers: Claude Code (and our OpenCode plugin) paste stdout as
 * plain text into the summarizer's prompt; Codex CLI, pi and Copilot CLI take JSON; Gemini
 * CLI takes JSON and fires before every model call, so it writes only when a compression is
 * due; Qwen Code adds PreCompact's hookSpecificOutput.additionalContext to the summarizer's
 * instructions.
 */
type CompactStyle = 'text' | 'json' | 'gemini' | 'qwen';

/** Claude Code, Codex CLI, Gemini CLI, Qwen Code: hookSpecificOutput; Copilot CLI: a top-level additionalContext. */
type StartStyle = 'claude' | 'copilot';

/** Qwen Code keeps at most this much of PreCompact's additionalContext. */
const QWEN_COMPACT_LIMIT = 4000;

const answer = (ctx: Context, value: unknown) => ctx.stdout(`${JSON.stringify(value)}\n`);

/**
 * Gemini CLI and Qwen Code escape < and > in hook context, Copilot CLI drops it at
 * compaction, Cline never passes it: the pins go (verbatim) into an instruction file's block too.
 */
async function refreshPins(ctx: Context, file: string): Promise<void> {
  if (!(await exists(ctx.dir))) return;
  const { refreshPinsBlock } = await import('./pins-block.js');
  if (await refreshPinsBlock(ctx, file)) ctx.stderr(`handoff: ${file}: brought the pinned constraints up to date`);
}

/** An agent's summary of an earlier compaction, written since, goes into that compaction's handoff first. */
async function harvestSummaries(ctx: Context): Promise<void> {
  if (harvestIsDue(ctx)) await (await import('./harvest.js')).harvest(ctx);
}

async function sessionStart(
  ctx: Context,
  input: HookInput,
  agent: string,
  style: StartStyle = 'claude',
): Promise<void> {
  if (!(await exists(ctx.dir))) return; // this repository does not use handoffs: say nothing
  await harvestSummaries(ctx);
  let built: Awaited<ReturnType<typeof buildResume>>;
  const budgetMs = sessionBudgetMs(ctx.env);
  try {
    built = await buildResume(
      ctx,
      undefined,
      false,
      within(ctx.now().getTime() + budgetMs, budgetMs, () => ctx.now().getTime()),
    );
  } catch (error) {
    if (error instanceof BudgetSpent) return budgetFallback(ctx, budgetMs, agent);
    if (!(error instanceof HandoffError)) throw error;
    // Nothing to resume and no pins (with pins, buildResume gives a pins-only prompt).
    ctx.stderr(`handoff: nothing to resume: ${error.message.split('\n')[0]}`);
    return;
  }
  const { text, form, pointedPins } = sessionContext(built.prompt, built.parts);
  const output: Record<string, unknown> =
    style === 'copilot'
      ? { additionalContext: text }
      : { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
  const id = built.parts.id;
  if (form !== 'full') {
    const file = built.parts.file;
    const what =
      form === 'pins-goal-next'
        ? 'the pins, goal and next steps'
        : form === 'pins-goal'
          ? 'the pins and goal'
          : form === 'pins'
            ? 'the pins'
            : 'only a pointer';
    const pointed =
      pointedPins > 0 && form !== 'pointer'
        ? ` (${pointedPins} pin${pointedPins === 1 ? '' : 's'} too long alone: pointed to ${pointedPins === 1 ? 'its file' : 'their files'})`
        : '';
    const line = `handoff: the resume prompt is ${built.prompt.length.toLocaleString('en-US')} characters, over the 10,000 a session-start hook can pass to ${agent} uncut; sent ${what}${pointed} and pointed the agent to ${file ?? '`handoff resume`'}`;
    output.systemMessage = line;
    ctx.stderr(line);
  } else if (id === null) {
    const n = built.parts.pins.length;
    ctx.stderr(
      `handoff: no open handoff; passed the ${n} pinned constraint${n === 1 ? '' : 's'} (${input.source ?? input.trigger ?? 'session start'})`,
    );
  } else {
    ctx.stderr(`handoff: resumed ${id} (${input.source ?? input.trigger ?? 'session start'})`);
  }
  answer(ctx, output);
}

/**
 * The prompt was not ready in time: the pins (verbatim where they fit the hook's limit, a
 * pointer to each file otherwise, so what is redacted here stays short) and a pointer to
 * the rest, rather than a hook the agent kills with nothing sent.
 */
async function budgetFallback(ctx: Context, budgetMs: number, agent: string): Promise<void> {
  const [{ loadPins }, { activePins }, { promptPins }, { fitPins, SESSION_CONTEXT_LIMIT }, { redactSecrets }] =
    await Promise.all([
      import('../store/store.js'),
      import('../store/pin-scope.js'),
      import('../resume/prompt.js'),
      import('../resume/session-context.js'),
      import('../security/redact.js'),
    ]);
  const pins = promptPins(activePins((await loadPins(ctx)).items));
  const pointer = `The full resume prompt was not ready within this hook's time budget (${budgetMs.toLocaleString('en-US')} ms), so ${pins.length > 0 ? 'only the pinned constraints are here' : 'nothing of it is here'}. Before you start, run \`handoff resume\` and read its whole output.`;
  const intro =
    pins.length > 0
      ? 'The constraints under "Pinned constraints" are the user\'s own words; follow them exactly, as written.'
      : '';
  const fitted = fitPins(pins, SESSION_CONTEXT_LIMIT - intro.length - pointer.length - 8);
  const text = `${[intro, redactSecrets(fitted?.text ?? '').text, pointer].filter(Boolean).join('\n\n')}\n`;
  const line = `handoff: the resume prompt was not ready within ${budgetMs.toLocaleString('en-US')} ms; sent ${pins.length > 0 ? 'the pins and ' : ''}a pointer to \`handoff resume\` to ${agent}`;
  ctx.stderr(line);
  answer(ctx, { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text }, systemMessage: line });
}

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

async function writeCompactionHandoff(
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

/** Cline's TaskStart output reaches nothing: bring the pins in its rules file up to date for the task. */
async function clineTaskStart(ctx: Context): Promise<void> {
  await refreshPins(ctx, '.clinerules/git-handoff.md');
  answer(ctx, {});
}

/**
 * Cline's PreCompact never fires (3.0): when a task ends, a compaction it went through has
 * left `<id>.compaction.json` beside its messages; one handoff per such file.
 */
async function clineTaskComplete(ctx: Context, input: HookInput, agent: string): Promise<void> {
  answer(ctx, {});
  if (!input.session_id || !(await exists(ctx.dir))) return;
  const { clineCompaction, clineSummary } = await import('./cline-session.js');
  const found = await clineCompaction(ctx.env, input.session_id);
  if (!found) return;
  const compaction = await import('./compaction.js');
  if (await compaction.writtenForCompaction(ctx.root, input.session_id, found.compaction)) return;
  const written = await writeCompactionHandoff(ctx, { ...input, transcript_path: found.messages }, agent);
  if (written === null) return;
  const file = ctx.rel(written.file);
  await compaction.rememberCompaction(ctx.root, input.session_id, found.compaction, file);
  ctx.stderr(`handoff: wrote ${file} after ${agent} compacted this task; goal: ${truncate(written.goal, 80)}`);
  // The summary is written already (its PreCompact never fires, so it was not steered): folded now.
  const summary = await clineSummary(found.compaction);
  if (summary)
    await (await import('./harvest.js')).foldInto(
      ctx,
      { file, transcript: found.messages, agent, session: input.session_id },
      summary,
    );
}

/** Opt-in (Stop hook): once per session, one line when the context passes the threshold. The user decides. */
async function meter(ctx: Context, input: HookInput, agent: string): Promise<void> {
  if (!input.transcript_path || !(await exists(ctx.dir))) return;
  const { lastUsage, readTranscriptTail } = await import('./claude-usage.js');
  const usage = lastUsage(await readTranscriptTail(input.transcript_path));
  if (!usage) return;
  // One formula with `handoff meter`: the same tokens, the same window (model, else config), the same threshold.
  const { computeMeter } = await import('../transcripts/meter-usage.js');
  const configWindow = Number(ctx.env.HANDOFF_CONTEXT_WINDOW) || ctx.config.context_window;
  const m = computeMeter(
    { contextTokens: usage.tokens, ...(usage.model ? { model: usage.model } : {}) },
    configWindow,
    ctx.config.meter_threshold,
  );
  if (!m?.above) return;
  const { firstSuggestion } = await import('./meter-state.js');
  if (!(await firstSuggestion(input.session_id ?? input.transcript_path))) return;
  const line = `handoff: ${agent}'s context is at ${Math.round(m.percent)}% (${m.tokens.toLocaleString('en-US')} of ${m.window.toLocaleString('en-US')} tokens); consider \`handoff new "<next goal>"\` and a fresh session before it compacts`;
  ctx.stderr(line);
  answer(ctx, { systemMessage: line });
}

export async function run(ctx: Context, args: ArgsOf<'hook'>): Promise<Outcome> {
  const name = args.positionals[0];
  const hook = (HOOKS as Record<string, HookSpec | undefined>)[name];
  if (!hook) {
    ctx.stderr(`handoff: warning: no hook named '${name}'; expected one of ${HOOK_NAMES.join(', ')}`);
    return;
  }
  const raw = ctx.stdinIsTTY() ? '' : new TextDecoder().decode(await ctx.readStdin());
  const parsed = parseHookInput(raw);
  if (!parsed.ok) {
    ctx.stderr(`handoff: warning: ${name}: ${parsed.problem}; nothing done`);
    return;
  }
  await hook.run(ctx, parsed.input, hook.agent);
}
