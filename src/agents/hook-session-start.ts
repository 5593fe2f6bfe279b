// The session-start hooks of every agent: the resume prompt in the agent's own answer
// format, the pins in an instruction file's block where the hook's text does not reach the
// model verbatim, and first, any agent summary that is due (harvest.ts). These run on every
// session start: only the modules `handoff resume` needs are loaded.
import type { Context } from '../command/context.js';
import type { HookInput } from './hook-input.js';
import { sessionContext } from '../resume/session-context.js';
import { buildResume } from '../resume/build.js';
import { BudgetSpent, sessionBudgetMs, within } from '../resume/time-budget.js';
import { HandoffError } from '../core/errors.js';
import { exists } from '../store/fs.js';
import { thousands } from '../store/markdown.js';
import { harvestIsDue } from './harvest-due.js';

/** Claude Code, Codex CLI, Gemini CLI, Qwen Code: hookSpecificOutput; Copilot CLI: a top-level additionalContext. */
export type StartStyle = 'claude' | 'copilot';

/** Every hook answers one JSON value on stdout, and nothing else goes there. */
export const answer = (ctx: Context, value: unknown) => ctx.stdout(`${JSON.stringify(value)}\n`);

/**
 * Gemini CLI and Qwen Code escape < and > in hook context, Copilot CLI drops it at
 * compaction, Cline never passes it: the pins go (verbatim) into an instruction file's block too.
 */
export async function refreshPins(ctx: Context, file: string): Promise<void> {
  if (!(await exists(ctx.dir))) return;
  const { refreshPinsBlock } = await import('./pins-block.js');
  if (await refreshPinsBlock(ctx, file)) ctx.stderr(`handoff: ${file}: brought the pinned constraints up to date`);
}

/** An agent's summary of an earlier compaction, written since, goes into that compaction's handoff first. */
export async function harvestSummaries(ctx: Context): Promise<void> {
  if (harvestIsDue(ctx)) await (await import('./harvest.js')).harvest(ctx);
}

export async function sessionStart(
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
  // The agent (and its user) should know the pins came with the default settings.
  const config =
    ctx.configProblem === undefined
      ? ''
      : `handoff: config.yml could not be read, the defaults were used: ${ctx.configProblem}`;
  if (config) output.systemMessage = config;
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
    const line = `handoff: the resume prompt is ${thousands(built.prompt.length)} characters, over the 10,000 a session-start hook can pass to ${agent} uncut; sent ${what}${pointed} and pointed the agent to ${file ?? '`handoff resume`'}`;
    output.systemMessage = config ? `${config}\n${line}` : line;
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

/** A session start that also brings the pins in an instruction file's block up to date. */
export const startWithPins =
  (file: string, style: StartStyle = 'claude') =>
  async (ctx: Context, input: HookInput, agent: string) => {
    await refreshPins(ctx, file);
    await sessionStart(ctx, input, agent, style);
  };

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
