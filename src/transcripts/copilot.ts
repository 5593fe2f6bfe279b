// GitHub Copilot CLI session events (`~/.copilot/session-state/<id>/events.jsonl`): one
// `{type, data, id, timestamp, parentId}` record per line. The user's words are in
// `user.message` (`content`; `transformedContent` adds what hooks injected), the model's
// in `assistant.message` with `toolRequests`, results in `tool.execution_complete`, and
// an applied compaction's summary in `session.compaction_complete`.
import { isObject, jsonRecords, newStats, str, type Lines, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

// Everything 1.0.102 writes: the session's bookkeeping, hooks, per-call model traffic, usage.
const KNOWN = new Set([
  'session.start',
  'session.resume',
  'session.permissions_changed',
  'session.info',
  'session.model_change',
  'session.usage_record',
  'session.usage_checkpoint',
  'session.compaction_start',
  'session.compaction_complete',
  'session.shutdown',
  'session.warning',
  'session.error',
  'session.truncation',
  'hook.start',
  'hook.end',
  'user.message',
  'system.message',
  'assistant.turn_start',
  'assistant.message',
  'assistant.reasoning',
  'assistant.usage',
  'assistant.turn_end',
  'tool.execution_start',
  'tool.execution_partial_result',
  'tool.execution_complete',
  'tool.user_requested',
  'model.turn_started',
  'model.model_call_started',
  'model.model_call_success',
  'model.model_call_failure',
  'model.message',
  'model.response',
  'model.turn_ended',
  'model.messages_snapshot',
  'abort',
]);

export async function* readCopilot(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  for await (const { n, rec } of jsonRecords(lines, stats)) {
    const type = str(rec.type) ?? '';
    const data = isObject(rec.data) ? rec.data : {};
    const line = { line: n };
    if (!KNOWN.has(type)) stats.unknown++;
    if (typeof rec.timestamp === 'string') yield { kind: 'time', line: n, at: rec.timestamp };
    if (type === 'session.start' || type === 'session.resume') {
      const context = isObject(data.context) ? data.context : {};
      const cwd = str(context.cwd) ?? str(data.cwd);
      yield {
        kind: 'meta',
        ...line,
        ...(str(data.sessionId) ? { sessionId: str(data.sessionId)! } : {}),
        ...(cwd ? { cwd } : {}),
        ...(str(data.startTime) ? { start: str(data.startTime)! } : {}),
        ...(str(data.selectedModel) ? { model: str(data.selectedModel)! } : {}),
        ...(str(data.copilotVersion) ? { version: str(data.copilotVersion)! } : {}),
      };
    } else if (type === 'user.message') {
      // `content` is what the user typed; a slash command such as /compact is not a request to the agent.
      const text = str(data.content);
      if (text?.trim() && !/^\/\w+/.test(text.trim())) yield { kind: 'user', text, ...line };
    } else if (type === 'assistant.message') {
      const text = str(data.content);
      if (text?.trim()) yield { kind: 'assistant', text, ...line };
      for (const call of Array.isArray(data.toolRequests) ? data.toolRequests.filter(isObject) : []) {
        const name = str(call.name) ?? '';
        const id = str(call.toolCallId);
        yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: call.arguments, ...line };
        yield* toolEvents(name, id, call.arguments, line);
      }
    } else if (type === 'tool.execution_complete') {
      const id = str(data.toolCallId);
      yield { kind: 'tool-result', ...(id ? { id } : {}), isError: data.success === false, ...line };
    } else if (type === 'session.compaction_complete') {
      // A compaction cancelled before its summary returned dropped nothing.
      if (data.success === false || (data.outcome !== undefined && data.outcome !== 'applied')) continue;
      const summary = str(data.summaryContent);
      yield { kind: 'compaction', ...(summary?.trim() ? { summary } : {}), ...line };
    } else if (type === 'assistant.usage' || type === 'session.usage_record') {
      const tokens = typeof data.inputTokens === 'number' ? data.inputTokens : undefined;
      if (tokens)
        yield {
          kind: 'usage',
          contextTokens: tokens,
          ...(str(data.model) ? { model: str(data.model)! } : {}),
          ...line,
        };
    }
  }
}
