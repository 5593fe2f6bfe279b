// `handoff hook <name>`: the entry points agents call. Each reads the agent's JSON on
// stdin and answers on stdout in that agent's format, and nothing else goes to stdout
// (Gemini CLI parses all of it as JSON). These run on every session start: only the
// modules `handoff resume` needs are loaded (no yargs, remark, openai or tokenizer), and
// the command is marked fail-open in spec.ts, so an internal error is a warning on
// stderr and exit 0: a broken handoff never stops an agent from starting.
// Each agent family's entry points live beside this table: hook-session-start.ts,
// hook-pre-compact.ts, hook-cline.ts, hook-meter.ts.
import { HOOK_NAMES, type ArgsOf, type HookName, type Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { answer, sessionStart, startWithPins } from './hook-session-start.js';
import { compact } from './hook-pre-compact.js';
import { clineTaskComplete, clineTaskStart } from './hook-cline.js';
import { meter } from './hook-meter.js';

interface HookSpec {
  agent: string;
  run: (ctx: Context, input: HookInput, agent: string) => Promise<void>;
  /**
   * `writes`: it writes a handoff that supersedes the open one, so its input must be the
   * agent's (hook-input.ts strict). `start`: it delivers the pins, so it runs on the
   * default settings when config.yml cannot be read (the others do nothing then).
   */
  kind?: 'writes' | 'start';
}

const HOOKS: Record<HookName, HookSpec> = {
  'claude-session-start': { agent: 'Claude Code', run: sessionStart, kind: 'start' },
  'claude-pre-compact': { agent: 'Claude Code', run: compact('text'), kind: 'writes' },
  'claude-meter': { agent: 'Claude Code', run: meter },
  'codex-session-start': { agent: 'Codex CLI', run: sessionStart, kind: 'start' },
  'codex-pre-compact': { agent: 'Codex CLI', run: compact('json'), kind: 'writes' },
  'gemini-session-start': { agent: 'Gemini CLI', run: startWithPins('GEMINI.md'), kind: 'start' },
  'gemini-pre-compress': { agent: 'Gemini CLI', run: compact('gemini'), kind: 'writes' },
  'opencode-session-start': { agent: 'OpenCode', run: sessionStart, kind: 'start' },
  'opencode-pre-compact': { agent: 'OpenCode', run: compact('text'), kind: 'writes' },
  'pi-session-start': { agent: 'pi', run: sessionStart, kind: 'start' },
  'pi-pre-compact': { agent: 'pi', run: compact('json'), kind: 'writes' },
  probe: { agent: '', run: probeAnswer },
  'kilo-session-start': { agent: 'Kilo', run: sessionStart, kind: 'start' },
  'kilo-pre-compact': { agent: 'Kilo', run: compact('text'), kind: 'writes' },
  'copilot-session-start': {
    agent: 'Copilot CLI',
    run: startWithPins('.github/copilot-instructions.md', 'copilot'),
    kind: 'start',
  },
  'copilot-pre-compact': { agent: 'Copilot CLI', run: compact('json'), kind: 'writes' },
  'qwen-session-start': { agent: 'Qwen Code', run: startWithPins('QWEN.md'), kind: 'start' },
  'qwen-pre-compact': { agent: 'Qwen Code', run: compact('qwen'), kind: 'writes' },
  'cline-task-start': { agent: 'Cline', run: clineTaskStart, kind: 'start' },
  'cline-task-complete': { agent: 'Cline', run: clineTaskComplete, kind: 'writes' },
};

/** `agent install` and `agent status` run the hook command with this: which CLI it reached, nothing changed. */
async function probeAnswer(ctx: Context): Promise<void> {
  const { version } = await import('../core/version.js');
  const { currentCli } = await import('../git-hooks/hook-files.js');
  answer(ctx, { probe: 'ok', version: version(), bin: currentCli().bin });
}

export async function run(ctx: Context, args: ArgsOf<'hook'>): Promise<Outcome> {
  const name = args.positionals[0];
  const hook = (HOOKS as Record<string, HookSpec | undefined>)[name];
  if (!hook) {
    ctx.stderr(`handoff: warning: no hook named '${name}'; expected one of ${HOOK_NAMES.join(', ')}`);
    return;
  }
  const raw = ctx.stdinIsTTY() ? '' : new TextDecoder().decode(await ctx.readStdin());
  const parsed = parseHookInput(raw, hook.kind === 'writes');
  if (!parsed.ok) {
    ctx.stderr(`handoff: warning: ${name}: ${parsed.problem}; nothing done`);
    return;
  }
  if (ctx.configProblem !== undefined) {
    if (hook.kind !== 'start') {
      ctx.stderr(`handoff: warning: ${name}: config.yml could not be read, nothing done: ${ctx.configProblem}`);
      return;
    }
    ctx.stderr(
      `handoff: warning: config.yml could not be read, this session start used the defaults: ${ctx.configProblem}`,
    );
  }
  await hook.run(ctx, parsed.input, hook.agent);
}
