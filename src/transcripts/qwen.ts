// Qwen Code chats (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`): one record per line,
// `{uuid, parentUuid, sessionId, timestamp, type, cwd, version, message, ...}`, where the
// message has Gemini-style `parts` (text, functionCall, functionResponse). A compression
// is a `system` record (`chat_compression`) whose new history opens with the summary.
import { isObject, jsonRecords, newStats, str, type Lines, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

const KNOWN = new Set(['user', 'assistant', 'tool_result', 'system']);

const partsOf = (rec: Record<string, unknown>): Record<string, unknown>[] => {
  const m = isObject(rec.message) ? rec.message : {};
  return Array.isArray(m.parts) ? m.parts.filter(isObject) : [];
};

// What a hook added (ours included) rides in the user's message as <qwen:...-context>: not the user's words.
const HOOK_CONTEXT = /<qwen:[\w-]+-context\b[^>]*>[\s\S]*?(<\/qwen:[\w-]+-context>|$)/g;

/** The summary a compression put first in the new history, without its wrapper and the resume instruction. */
function summaryOf(payload: Record<string, unknown>): string | undefined {
  const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
  const first = history.find(isObject);
  if (!first || !Array.isArray(first.parts)) return undefined;
  const text = first.parts.map((p) => (isObject(p) ? (str(p.text) ?? '') : '')).join('\n');
  const inner =
    /<summary>([\s\S]*?)<\/summary>/.exec(text)?.[1] ?? /<state_snapshot>[\s\S]*?<\/state_snapshot>/.exec(text)?.[0];
  // Qwen Code follows the summary with its own instruction to carry on: not part of it.
  return (inner ?? text.replace(/\n+Resume the prior task using the summary above\.[\s\S]*$/, '')).trim() || undefined;
}

export async function* readQwen(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  let meta = false;
  for await (const { n, rec } of jsonRecords(lines, stats)) {
    const type = str(rec.type) ?? '';
    const line = { line: n };
    if (!KNOWN.has(type)) stats.unknown++;
    if (!meta && typeof rec.sessionId === 'string') {
      meta = true;
      yield {
        kind: 'meta',
        ...line,
        sessionId: rec.sessionId,
        ...(str(rec.cwd) ? { cwd: str(rec.cwd)! } : {}),
        ...(str(rec.timestamp) ? { start: str(rec.timestamp)! } : {}),
        ...(str(rec.version) ? { version: str(rec.version)! } : {}),
      };
    }
    if (typeof rec.timestamp === 'string') yield { kind: 'time', line: n, at: rec.timestamp };
    if (type === 'user') {
      const payload = isObject(rec.systemPayload) ? rec.systemPayload : {};
      const typed =
        str(payload.displayText) ??
        partsOf(rec)
          .map((p) => str(p.text) ?? '')
          .join('\n');
      const text = typed.replace(HOOK_CONTEXT, '');
      // A slash command (/compress) is addressed to the agent, not a request to the model.
      if (text.trim() && !/^\/\w+/.test(text.trim())) yield { kind: 'user', text, ...line };
    } else if (type === 'assistant') {
      for (const p of partsOf(rec)) {
        if (typeof p.text === 'string' && p.text.trim() && p.thought !== true)
          yield { kind: 'assistant', text: p.text, ...line };
        const call = isObject(p.functionCall) ? p.functionCall : undefined;
        if (call) {
          const name = str(call.name) ?? '';
          const id = str(call.id);
          yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: call.args, ...line };
          yield* toolEvents(name, id, call.args, line);
        }
      }
      const usage = isObject(rec.usage) ? rec.usage : {};
      const tokens = usage.promptTokenCount;
      if (typeof tokens === 'number' && tokens > 0)
        yield { kind: 'usage', contextTokens: tokens, ...(str(rec.model) ? { model: str(rec.model)! } : {}), ...line };
    } else if (type === 'tool_result') {
      for (const p of partsOf(rec)) {
        const r = isObject(p.functionResponse) ? p.functionResponse : undefined;
        if (!r) continue;
        const response = isObject(r.response) ? r.response : {};
        const id = str(r.id);
        yield { kind: 'tool-result', ...(id ? { id } : {}), isError: response.error !== undefined, ...line };
      }
    } else if (type === 'system' && rec.subtype === 'chat_compression') {
      const summary = summaryOf(isObject(rec.systemPayload) ? rec.systemPayload : {});
      yield { kind: 'compaction', ...(summary ? { summary } : {}), ...line };
    }
  }
}
