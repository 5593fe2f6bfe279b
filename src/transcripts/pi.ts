// pi coding agent session JSONL: a `session` header, then `message` entries whose
// message has role user / assistant (with toolCall blocks) / toolResult, and
// `compaction` entries.
import { isObject, jsonRecords, newStats, str, type Lines, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

// custom_message: what an extension added to the conversation (ours included): known, not the user's words.
const KNOWN = new Set([
  'session',
  'message',
  'compaction',
  'model_change',
  'thinking_level_change',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => isObject(b) && b.type === 'text')
    .map((b) => str((b as Record<string, unknown>).text) ?? '')
    .join('\n');
}

export async function* readPi(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  for await (const { n, rec } of jsonRecords(lines, stats)) {
    const type = str(rec.type) ?? '';
    const base = { line: n };
    if (!KNOWN.has(type)) stats.unknown++;
    if (typeof rec.timestamp === 'string') yield { kind: 'time', line: n, at: rec.timestamp };
    if (type === 'session') {
      yield {
        kind: 'meta',
        line: n,
        ...(str(rec.id) ? { sessionId: str(rec.id)! } : {}),
        ...(str(rec.cwd) ? { cwd: str(rec.cwd)! } : {}),
        ...(str(rec.timestamp) ? { start: str(rec.timestamp)! } : {}),
        ...(str(rec.modelId) ? { model: str(rec.modelId)! } : {}),
      };
    } else if (type === 'compaction') {
      // The summary ends with the file lists pi appends (<read-files>, <modified-files>); details has them too.
      const summary = str(rec.summary)
        ?.replace(/\n*<(read|modified)-files>[\s\S]*?<\/\1-files>\s*/g, '\n')
        .trim();
      yield { kind: 'compaction', ...(summary ? { summary } : {}), ...base };
      // The summary carries the files modified before it, which the dropped entries named.
      const details = isObject(rec.details) ? rec.details : {};
      if (Array.isArray(details.modifiedFiles))
        for (const f of details.modifiedFiles)
          if (typeof f === 'string') yield { kind: 'file-edit', path: f, change: 'edit', ...base };
    } else if (type === 'message' && isObject(rec.message)) {
      const m = rec.message;
      if (m.role === 'user') {
        const t = text(m.content);
        if (t.trim()) yield { kind: 'user', text: t, ...base };
      } else if (m.role === 'toolResult') {
        yield {
          kind: 'tool-result',
          ...(str(m.toolCallId) ? { id: str(m.toolCallId)! } : {}),
          isError: m.isError === true,
          ...base,
        };
      } else if (m.role === 'assistant' && Array.isArray(m.content)) {
        for (const b of m.content) {
          if (!isObject(b)) continue;
          if (b.type === 'text' && typeof b.text === 'string' && b.text.trim())
            yield { kind: 'assistant', text: b.text, ...base };
          else if (b.type === 'toolCall') {
            const name = str(b.name) ?? '';
            const id = str(b.id);
            yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: b.arguments, ...base };
            yield* toolEvents(name, id, b.arguments, base);
          }
        }
        const u = isObject(m.usage) ? m.usage : undefined;
        if (u) {
          const tokens = ['input', 'cacheRead', 'cacheWrite'].reduce(
            (s, k) => s + (typeof u[k] === 'number' ? (u[k] as number) : 0),
            0,
          );
          if (tokens > 0)
            yield { kind: 'usage', contextTokens: tokens, ...(str(m.model) ? { model: str(m.model)! } : {}), ...base };
        }
      }
    }
  }
}
