// Codex CLI rollout JSONL: `{timestamp, type, payload}` lines (0.169 adds `ordinal`).
// Clean user text comes from event_msg user_message, or from 0.169 on from item_completed
// UserMessage (response_item user messages carry injected context blocks). Results of
// commands and patches: exec_command_end / patch_apply_end before 0.169, item_completed
// CommandExecution / FileChange after.
import {
  isObject,
  jsonRecords,
  newStats,
  parseJson,
  str,
  type Lines,
  type ReadStats,
  type TranscriptEvent,
} from './events.js';
import { shellText, toolEvents } from './tools.js';

const KNOWN = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
  'world_state',
  'token_usage_record',
]);

export async function* readCodex(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  let window: number | undefined;
  let model: string | undefined;
  for await (const { n, rec } of jsonRecords(lines, stats)) {
    const type = str(rec.type) ?? '';
    const p = isObject(rec.payload) ? rec.payload : {};
    const base = { line: n };
    if (!KNOWN.has(type)) stats.unknown++;
    if (typeof rec.timestamp === 'string') yield { kind: 'time', line: n, at: rec.timestamp };
    if (type === 'session_meta') {
      yield {
        kind: 'meta',
        line: n,
        ...(str(p.id) ? { sessionId: str(p.id)! } : {}),
        ...(str(p.cwd) ? { cwd: str(p.cwd)! } : {}),
        ...(str(p.timestamp) ? { start: str(p.timestamp)! } : {}),
        ...(str(p.cli_version) ? { version: str(p.cli_version)! } : {}),
      };
    } else if (type === 'turn_context') {
      model = str(p.model) ?? model;
    } else if (type === 'compacted') {
      // "Another language model started to solve this problem and produced a summary ...:\n<summary>"
      const summary = str(p.message)
        ?.replace(/^Another language model[^\n]*\n/, '')
        .trim();
      yield { kind: 'compaction', ...(summary ? { summary } : {}), ...base };
    } else if (type === 'response_item') {
      const pt = str(p.type);
      if (pt === 'message' && p.role === 'assistant' && Array.isArray(p.content)) {
        const text = p.content
          .filter(isObject)
          .map((c) => str(c.text) ?? '')
          .join('\n');
        if (text.trim()) yield { kind: 'assistant', text, ...base };
      } else if (pt === 'function_call' || pt === 'custom_tool_call') {
        const name = str(p.name) ?? '';
        const id = str(p.call_id);
        const input = pt === 'function_call' ? (parseJson(str(p.arguments) ?? '') ?? p.arguments) : p.input;
        yield { kind: 'tool-call', name, ...(id ? { id } : {}), input, ...base };
        yield* toolEvents(name, id, input, base);
      } else if (pt === 'local_shell_call') {
        const action = isObject(p.action) ? p.action : {};
        const cmd = shellText(action.command);
        const id = str(p.call_id);
        if (cmd) yield { kind: 'shell', command: cmd, ...(id ? { id } : {}), ...base };
      }
    } else if (type === 'event_msg') {
      const pt = str(p.type);
      if (pt === 'user_message' && typeof p.message === 'string') yield { kind: 'user', text: p.message, ...base };
      else if (pt === 'item_completed' && isObject(p.item)) yield* completedItem(p.item, base);
      else if (pt === 'task_started' && typeof p.model_context_window === 'number') window = p.model_context_window;
      else if (pt === 'exec_command_end' && typeof p.exit_code === 'number') {
        const id = str(p.call_id);
        yield { kind: 'tool-result', ...(id ? { id } : {}), isError: p.exit_code !== 0, ...base };
      } else if (pt === 'patch_apply_end') {
        const id = str(p.call_id);
        yield { kind: 'tool-result', ...(id ? { id } : {}), isError: p.success === false, ...base };
      } else if (pt === 'token_count' && isObject(p.info)) {
        const last = isObject(p.info.last_token_usage) ? p.info.last_token_usage : undefined;
        const w = typeof p.info.model_context_window === 'number' ? p.info.model_context_window : window;
        if (last && typeof last.total_tokens === 'number')
          yield {
            kind: 'usage',
            contextTokens: last.total_tokens,
            ...(w ? { window: w } : {}),
            ...(model ? { model } : {}),
            ...base,
          };
      }
    }
  }
}

/** 0.169's item_completed: the user's words, a file change's and a command's outcome. */
function* completedItem(item: Record<string, unknown>, base: { line: number }): Generator<TranscriptEvent> {
  const id = str(item.id);
  if (item.type === 'UserMessage' && Array.isArray(item.content)) {
    const text = item.content
      .filter(isObject)
      .map((c) => str(c.text) ?? '')
      .join('\n');
    if (text.trim()) yield { kind: 'user', text, ...base };
  } else if (item.type === 'CommandExecution' && typeof item.exit_code === 'number') {
    yield { kind: 'tool-result', ...(id ? { id } : {}), isError: item.exit_code !== 0, ...base };
  } else if (item.type === 'FileChange') {
    yield { kind: 'tool-result', ...(id ? { id } : {}), isError: item.status !== 'completed', ...base };
  }
}
