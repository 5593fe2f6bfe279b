// OpenCode (and Kilo) sessions, from its SQLite database (opencode-db.ts) or the legacy
// JSON storage: messages `{role, modelID, tokens}` each with parts `text`, `tool {tool,
// callID, state {status, input}}`, `patch {files[]}`, `step-finish {tokens}`, `compaction`.
// The summary of a compaction is the text of the assistant message marked `summary: true`
// that follows the user message holding the `compaction` part.
import { isObject, str, todoStatus, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

export interface OpenCodeMessage {
  data: Record<string, unknown>;
  parts: Array<Record<string, unknown>>;
}

export interface OpenCodeSession {
  id: string;
  directory?: string;
  created?: number;
  updated?: number;
  /** The session's todo list (1.18's `todo` table), when the database has one. */
  todos?: Array<Record<string, unknown>>;
  messages: () => AsyncIterable<OpenCodeMessage>;
}

function contextTokens(t: unknown): number | undefined {
  if (!isObject(t) || typeof t.input !== 'number') return undefined;
  const cache = isObject(t.cache) ? t.cache : {};
  return (
    t.input + (typeof cache.read === 'number' ? cache.read : 0) + (typeof cache.write === 'number' ? cache.write : 0)
  );
}

/** `opencode run` stores the prompt as a JSON string literal, quotes included. */
function unquoted(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' ? v : text;
  } catch {
    return text;
  }
}

export async function* readOpenCode(session: OpenCodeSession, stats: ReadStats): AsyncGenerator<TranscriptEvent> {
  yield {
    kind: 'meta',
    line: 0,
    sessionId: session.id,
    ...(session.directory ? { cwd: session.directory } : {}),
    ...(session.created ? { start: new Date(session.created).toISOString() } : {}),
  };
  let n = 0;
  // A compaction part waits for the summary message after it, so one compaction is one event.
  let pending: number | undefined;
  for await (const m of session.messages()) {
    n++;
    stats.records++;
    const base = { line: n };
    const role = m.data.role;
    const model = str(m.data.modelID);
    if (role === 'assistant' && m.data.summary === true) {
      const summary = m.parts
        .filter((p) => p.type === 'text' && typeof p.text === 'string')
        .map((p) => p.text as string)
        .join('\n')
        .trim();
      yield { kind: 'compaction', ...(summary ? { summary } : {}), line: pending ?? n };
      pending = undefined;
      for (const p of m.parts)
        if (!['text', 'step-start', 'step-finish', 'reasoning'].includes(str(p.type) ?? '')) stats.unknown++;
      continue;
    }
    if (pending !== undefined) {
      yield { kind: 'compaction', line: pending };
      pending = undefined;
    }
    for (const p of m.parts) {
      const type = str(p.type);
      if (type === 'text' && p.synthetic === true) {
        // What the agent added itself after a compaction ("Continue if you have next steps..."): not the user's words.
      } else if (type === 'text' && typeof p.text === 'string') {
        if (role === 'user') yield { kind: 'user', text: unquoted(p.text), ...base };
        else yield { kind: 'assistant', text: p.text, ...base };
      } else if (type === 'tool') {
        const name = str(p.tool) ?? '';
        const id = str(p.callID);
        const state = isObject(p.state) ? p.state : {};
        yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: state.input, ...base };
        yield* toolEvents(name, id, state.input, base);
        if (state.status === 'completed' || state.status === 'error')
          yield { kind: 'tool-result', ...(id ? { id } : {}), isError: state.status === 'error', ...base };
      } else if (type === 'patch' && Array.isArray(p.files)) {
        for (const f of p.files)
          if (typeof f === 'string') yield { kind: 'file-edit', path: f, change: 'edit', ...base };
      } else if (type === 'step-finish') {
        const tokens = contextTokens(p.tokens);
        if (tokens !== undefined) yield { kind: 'usage', contextTokens: tokens, ...(model ? { model } : {}), ...base };
      } else if (type === 'compaction') {
        pending = n;
      } else if (
        type !== 'reasoning' &&
        type !== 'step-start' &&
        type !== 'file' &&
        type !== 'snapshot' &&
        type !== 'agent'
      ) {
        stats.unknown++;
      }
    }
  }
  if (pending !== undefined) yield { kind: 'compaction', line: pending };
  // The todo table holds the list as it stands; it wins over the last todowrite call.
  if (session.todos && session.todos.length > 0) {
    const items = [...session.todos]
      .sort((a, b) => Number(a.position ?? 0) - Number(b.position ?? 0))
      .map((t) => ({ text: str(t.content) ?? '', status: todoStatus(t.status) }));
    yield { kind: 'todos', items, line: n };
  }
}
