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
}

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
