// Gemini CLI chats: the legacy single JSON document `{sessionId, startTime, messages[]}`
// (read whole: these files stay small) and the newer JSONL (a metadata line, then one
// message per line, plus `$set` records that update the metadata).
import { isObject, newStats, parseJson, str, type Lines, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) ? (str(p.text) ?? '') : typeof p === 'string' ? p : '')).join('');
}

// What a SessionStart hook injected (ours included) is stored as a user message wrapped
// in <hook_context>: not the user's words, and quoting it would nest deeper every session.
const HOOK_CONTEXT = /<hook_context>[\s\S]*?(<\/hook_context>|$)/g;

function* message(m: Record<string, unknown>, line: number): Generator<TranscriptEvent> {
  const base = { line };
  if (typeof m.timestamp === 'string') yield { kind: 'time', line, at: m.timestamp };
  if (m.type === 'user') {
    const t = text(m.content).replace(HOOK_CONTEXT, '');
    if (t.trim()) yield { kind: 'user', text: t, ...base };
    return;
  }
  if (m.type !== 'gemini') return;
  const t = text(m.content);
  if (t.trim()) yield { kind: 'assistant', text: t, ...base };
  if (Array.isArray(m.toolCalls)) {
    for (const call of m.toolCalls.filter(isObject)) {
      const name = str(call.name) ?? '';
      const id = str(call.id);
      yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: call.args, ...base };
      yield* toolEvents(name, id, call.args, base);
      if (call.status !== undefined)
        yield {
          kind: 'tool-result',
          ...(id ? { id } : {}),
          isError: call.status === 'error' || call.status === 'cancelled',
          ...base,
        };
    }
  }
  if (isObject(m.tokens) && typeof m.tokens.input === 'number')
    yield { kind: 'usage', contextTokens: m.tokens.input, ...(str(m.model) ? { model: str(m.model)! } : {}), ...base };
}

function meta(doc: Record<string, unknown>, line: number): TranscriptEvent {
  return {
    kind: 'meta',
    line,
    ...(str(doc.sessionId) ? { sessionId: str(doc.sessionId)! } : {}),
    ...(str(doc.startTime) ? { start: str(doc.startTime)! } : {}),
  };
}

export async function* readGeminiCli(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const firstLine = first.value;
  const parsedFirst = parseJson(firstLine);
  if (isObject(parsedFirst) && !Array.isArray(parsedFirst.messages)) {
    // JSONL: the first line is the session's metadata.
    stats.records++;
    yield meta(parsedFirst, 1);
    let n = 1;
    let messages = 0;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      n++;
      if (r.value.trim() === '') continue;
      const rec = parseJson(r.value);
      if (!isObject(rec)) {
        stats.badLines++;
        continue;
      }
      stats.records++;
      if ('$set' in rec) {
        // A history rewritten after messages were written is a compression.
        if (isObject(rec.$set) && Array.isArray(rec.$set.messages) && messages > 0) {
          const summary = compressionSummary(rec.$set.messages.filter(isObject));
          yield { kind: 'compaction', ...(summary ? { summary } : {}), line: n };
        }
        continue;
      }
      // After --resume a second metadata line starts the continued session.
      if (rec.type === undefined && typeof rec.sessionId === 'string') {
        yield meta(rec, n);
        continue;
      }
      if (
        rec.type !== 'user' &&
        rec.type !== 'gemini' &&
        rec.type !== 'info' &&
        rec.type !== 'error' &&
        rec.type !== 'warning'
      )
        stats.unknown++;
      messages++;
      yield* message(rec, n);
    }
    return;
  }
  // A single JSON document: gather it, then walk its messages (record number = line).
  const parts = [firstLine];
  for (let r = await iterator.next(); !r.done; r = await iterator.next()) parts.push(r.value);
  const doc = parseJson(parts.join('\n'));
  if (!isObject(doc) || !Array.isArray(doc.messages)) {
    stats.badLines++;
    return;
  }
  yield meta(doc, 1);
  let i = 0;
  for (const m of doc.messages) {
    i++;
    stats.records++;
    if (isObject(m)) yield* message(m, i);
  }
}

/**
 * The summary in a rewritten history: the user message Gemini CLI answers with "Got it.
 * Thanks for the additional context!", else the one holding a `<state_snapshot>`. The
 * history may open with other user messages (the `<session_context>` with GEMINI.md, hook
 * context), which are not the summary; a rewrite with neither marker has none.
 */
function compressionSummary(messages: Record<string, unknown>[]): string {
  const userText = (m: Record<string, unknown> | undefined) => (m?.type === 'user' ? text(m.content).trim() : '');
  const acknowledged = messages.findIndex(
    (m, i) =>
      userText(m) !== '' &&
      messages[i + 1]?.type === 'gemini' &&
      /^Got it\. Thanks for the additional context/.test(text(messages[i + 1]!.content).trim()),
  );
  if (acknowledged >= 0) return userText(messages[acknowledged]);
  return messages.map(userText).find((t) => t.includes('<state_snapshot>')) ?? '';
}
