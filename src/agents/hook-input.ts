// The JSON an agent writes on a hook's stdin. Claude Code and Gemini CLI send the same
// base fields (session_id, transcript_path, cwd, hook_event_name) plus per-event ones
// (SessionStart: source; PreCompact/PreCompress: trigger, custom_instructions). Copilot
// CLI's camelCase events send the same facts in camelCase, and Cline names its session in
// `sessionContext.rootSessionId`. Unknown fields are ignored so a newer agent version does
// not break the hook.

export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  /** SessionStart: startup, resume, clear or compact. */
  source?: string;
  /** PreCompact: manual or auto. */
  trigger?: string;
  /** PreCompact: what the user typed after /compact (empty for auto). */
  custom_instructions?: string;
}

const STRING_FIELDS = [
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'source',
  'trigger',
  'custom_instructions',
] as const;

export type ParsedHookInput = { ok: true; input: HookInput } | { ok: false; problem: string };

/**
 * `strict` for the hooks that write a handoff: a write supersedes the open handoff, so
 * empty stdin, an object with none of the fields or a field of the wrong type is refused
 * rather than taken as "nothing known" (a session start may still pass the pins on less).
 */
export function parseHookInput(text: string, strict = false): ParsedHookInput {
  if (text.trim() === '')
    return strict
      ? { ok: false, problem: `stdin is empty; expected the agent's hook object, e.g. {"session_id":"..."}` }
      : { ok: true, input: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `stdin is not JSON (${(error as Error).message.split('\n')[0]}); expected the agent's hook object, e.g. {"session_id":"...","hook_event_name":"SessionStart"}`,
    };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return {
      ok: false,
      problem: `stdin is ${Array.isArray(data) ? 'an array' : typeof data === 'object' ? 'null' : `a ${typeof data}`}; expected the agent's hook object, e.g. {"session_id":"..."}`,
    };
  }
  const input: HookInput = {};
  const record = data as Record<string, unknown>;
  const context = record.sessionContext;
  const cline =
    typeof context === 'object' && context !== null ? (context as Record<string, unknown>).rootSessionId : undefined;
  const aliases: Record<string, unknown> = {
    session_id: record.sessionId ?? cline,
    transcript_path: record.transcriptPath,
    custom_instructions: record.customInstructions,
    hook_event_name: record.hookName,
  };
  for (const key of STRING_FIELDS) {
    const value = record[key] ?? aliases[key];
    if (typeof value === 'string') input[key] = value;
    // null is an agent saying "none"; any other non-string is not the agent's payload.
    else if (strict && value !== undefined && value !== null)
      return {
        ok: false,
        problem: `${key} is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a string`,
      };
  }
  if (strict && Object.keys(input).length === 0)
    return { ok: false, problem: `stdin has none of the hook's fields (${STRING_FIELDS.join(', ')})` };
  return { ok: true, input };
}

/**
 * A compaction handoff's own step: the user's instructions to the compaction when they
 * gave some, else which session was compacted. The chain's goal is not this: it stays
 * the user's request (handoff/goal.ts).
 */
export function compactionStep(custom: string | undefined, sessionId: string | undefined): string {
  const wanted = custom?.trim().replace(/^(?:continue:\s*)+/i, '');
  if (wanted) return wanted;
  return `continue the agent session${sessionId ? ` ${sessionId}` : ''} after its compaction`;
}
