// git-handoff for pi (written by `handoff agent install pi`; `handoff agent uninstall pi`
// removes this file). Every turn's system prompt carries the resume prompt (pins, the
// open handoff), so it survives compaction; before pi compacts a session a handoff is
// written from it. It needs only Node's built-ins, `sh` and the handoff CLI, found as the
// commands below find it (docs/agents.md); a failure never stops pi.
import { spawnSync } from 'node:child_process';

// One command per hook, filled in by `handoff agent install` (the same commands the agents'
// settings hold).
const COMMANDS: Record<string, string> = {};

function hook(name: string, input: Record<string, unknown>, cwd: string): string {
  const r = spawnSync('sh', ['-c', COMMANDS[name]], {
    cwd,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.stderr) process.stderr.write(r.stderr);
  return r.status === 0 ? r.stdout : '';
}

export default function (pi: any) {
  let context: string | undefined;
  pi.on('session_start', async () => {
    context = undefined;
  });
  pi.on('before_agent_start', async (event: any, ctx: any) => {
    if (context === undefined) {
      const out = hook(
        'pi-session-start',
        {
          session_id: ctx.sessionManager?.getSessionId?.(),
          cwd: ctx.cwd ?? process.cwd(),
          hook_event_name: 'SessionStart',
          source: 'startup',
        },
        ctx.cwd ?? process.cwd(),
      );
      try {
        context = out.trim() ? (JSON.parse(out).hookSpecificOutput?.additionalContext ?? '') : '';
      } catch {
        context = '';
      }
    }
    if (context) return { systemPrompt: `${event.systemPrompt}\n\n${context}` };
    return undefined;
  });
  pi.on('session_before_compact', async (event: any, ctx: any) => {
    const file = ctx.sessionManager?.getSessionFile?.();
    hook(
      'pi-pre-compact',
      {
        session_id: ctx.sessionManager?.getSessionId?.(),
        transcript_path: file,
        cwd: ctx.cwd ?? process.cwd(),
        hook_event_name: 'PreCompact',
        trigger: event.customInstructions ? 'manual' : 'auto',
        custom_instructions: event.customInstructions,
      },
      ctx.cwd ?? process.cwd(),
    );
    // A new handoff: the next turn reads the resume prompt again.
    context = undefined;
    return undefined;
  });
}
