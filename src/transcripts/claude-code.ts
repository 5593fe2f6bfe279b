// Claude Code session JSONL (1.0 through 2.1). One JSON object per line; unknown record
// types are counted and skipped. Subagent records (isSidechain) are marked as such.
import {
  isObject,
  jsonRecords,
  newStats,
  str,
  todoStatus,
  type Lines,
  type ReadStats,
  type TranscriptEvent,
} from './events.js';
import { toolEvents } from './tools.js';

const WRAPPED =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder|user-prompt-submit-hook)>/;

/** The user's own words: not meta, not a tool result, not a compact summary, not a wrapped command. */
function userText(rec: Record<string, unknown>, content: unknown): string | undefined {
  if (rec.isMeta === true || rec.isCompactSummary === true) return undefined;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    if (content.some((b) => isObject(b) && b.type === 'tool_result')) return undefined;
    text = content
      .filter((b) => isObject(b) && b.type === 'text')
      .map((b) => str((b as Record<string, unknown>).text) ?? '')
      .join('\n');
  }
  if (!text || WRAPPED.test(text) || text.startsWith('[Request interrupted')) return undefined;
  return text;
}

// 2.1.330 also writes attachment, api-request*, tools-used, last-prompt, cost-state,
// atis-latch and mode records on every session: known, nothing in them for a handoff.
const KNOWN = new Set([
  'user',
  'assistant',
  'summary',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'custom-title',
  'tag',
  'attachment',
  'api-request',
  'api-request-shape',
  'api-request-blob',
  'tools-used',
  'last-prompt',
  'cost-state',
  'atis-latch',
  'mode',
]);

type Created = { subject: string; line: number; sidechain?: boolean };

/** The task id TaskCreate's result carries (`toolUseResult.task.id`), when it does. */
function createdTaskId(rec: Record<string, unknown>): string | undefined {
  const result = isObject(rec.toolUseResult) ? rec.toolUseResult : {};
  const task = isObject(result.task) ? result.task : {};
  return task.id === undefined ? undefined : String(task.id);
}

export async function* readClaudeCode(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  let metaSent = false;
  // TaskCreate calls waiting for the result that names their id.
  const created = new Map<string, Created>();
  let boundary: number | undefined;
  for await (const { n, rec } of jsonRecords(lines, stats)) {
    const type = str(rec.type) ?? '';
    if (!KNOWN.has(type)) stats.unknown++;
    const sidechain = rec.isSidechain === true;
    const base = { line: n, ...(sidechain ? { sidechain } : {}) };
    if (!metaSent && typeof rec.sessionId === 'string' && typeof rec.cwd === 'string') {
      metaSent = true;
      yield {
        kind: 'meta',
        line: n,
        sessionId: rec.sessionId,
        cwd: rec.cwd,
        ...(str(rec.timestamp) ? { start: str(rec.timestamp)! } : {}),
        ...(str(rec.version) ? { version: str(rec.version)! } : {}),
      };
    }
    if (typeof rec.timestamp === 'string') yield { kind: 'time', line: n, at: rec.timestamp };
    if (type === 'system' && rec.subtype === 'compact_boundary') {
      // The summary comes in the user record after the boundary (isCompactSummary).
      if (boundary !== undefined) yield { kind: 'compaction', line: boundary };
      boundary = n;
      continue;
    }
    if (boundary !== undefined) {
      const summary = rec.isCompactSummary === true ? compactSummary(rec) : undefined;
      yield { kind: 'compaction', ...(summary ? { summary } : {}), line: boundary };
      boundary = undefined;
      if (rec.isCompactSummary === true) continue;
    }
    if (type !== 'user' && type !== 'assistant') continue;
    const message = isObject(rec.message) ? rec.message : {};
    const content = message.content;
    if (type === 'user') {
      const text = userText(rec, content);
      if (text !== undefined) yield { kind: 'user', text, ...base };
      if (Array.isArray(content)) {
        for (const b of content) {
          if (!isObject(b) || b.type !== 'tool_result') continue;
          const useId = str(b.tool_use_id);
          yield { kind: 'tool-result', ...(useId ? { id: useId } : {}), isError: b.is_error === true, ...base };
          const pending = useId ? created.get(useId) : undefined;
          if (pending) {
            created.delete(useId!);
            const id = createdTaskId(rec);
            if (b.is_error !== true)
              yield {
                kind: 'task',
                ...(id ? { id } : {}),
                subject: pending.subject,
                status: 'pending',
                line: pending.line,
                ...(pending.sidechain ? { sidechain: true } : {}),
              };
          }
        }
      }
      continue;
    }
    if (Array.isArray(content)) {
      for (const b of content) {
        if (!isObject(b)) continue;
        if (b.type === 'text' && typeof b.text === 'string') yield { kind: 'assistant', text: b.text, ...base };
        else if (b.type === 'tool_use') {
          const id = str(b.id);
          const input = isObject(b.input) ? b.input : {};
          // Current builds number tasks themselves: the task is yielded with its result.
          if (b.name === 'TaskCreate' && id && input.taskId === undefined) {
            created.set(id, { subject: str(input.subject) ?? str(input.description) ?? '', ...base });
            yield { kind: 'tool-call', name: 'TaskCreate', id, input: b.input, ...base };
          } else {
            // An update needs its task: creates whose result never came are numbered as they stand.
            if (b.name === 'TaskUpdate') yield* flush(created);
            yield* claudeTool(str(b.name) ?? '', id, b.input, base);
          }
        }
      }
    }
    const usage = isObject(message.usage) ? message.usage : undefined;
    if (usage) {
      const tokens = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].reduce(
        (s, k) => s + (typeof usage[k] === 'number' ? (usage[k] as number) : 0),
        0,
      );
      const model = str(message.model);
      yield {
        kind: 'usage',
        contextTokens: tokens,
        ...(model ? { model } : {}),
        ...(str(message.id) ? { responseId: str(message.id)! } : {}),
        ...base,
      };
    }
  }
  if (boundary !== undefined) yield { kind: 'compaction', line: boundary };
  // A TaskCreate whose result never came (the session ended first) still names a task.
  yield* flush(created);
}

/** "This session is being continued ... Summary:\n<the model's summary>": the summary. */
function compactSummary(rec: Record<string, unknown>): string | undefined {
  const message = isObject(rec.message) ? rec.message : {};
  const content = message.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter((b) => isObject(b) && b.type === 'text')
            .map((b) => str((b as Record<string, unknown>).text) ?? '')
            .join('\n')
        : '';
  const at = text.indexOf('Summary:\n');
  return (at === -1 ? text : text.slice(at + 'Summary:\n'.length)).trim() || undefined;
}

function* flush(created: Map<string, Created>): Generator<TranscriptEvent> {
  for (const pending of created.values())
    yield {
      kind: 'task',
      subject: pending.subject,
      status: 'pending',
      line: pending.line,
      ...(pending.sidechain ? { sidechain: true } : {}),
    };
  created.clear();
}

function* claudeTool(
  name: string,
  id: string | undefined,
  input: unknown,
  base: { line: number; sidechain?: boolean },
): Generator<TranscriptEvent> {
  const i = isObject(input) ? input : {};
  yield { kind: 'tool-call', name, ...(id ? { id } : {}), input, ...base };
  switch (name) {
    case 'TodoWrite':
      if (Array.isArray(i.todos)) {
        const items = i.todos
          .filter(isObject)
          .map((t) => ({ text: str(t.content) ?? str(t.activeForm) ?? '', status: todoStatus(t.status) }));
        yield { kind: 'todos', items, ...base };
      }
      return;
    case 'TaskCreate':
      yield {
        kind: 'task',
        ...(str(i.taskId) ? { id: str(i.taskId)! } : {}),
        subject: str(i.subject) ?? str(i.description) ?? '',
        status: 'pending',
        ...base,
      };
      return;
    case 'TaskUpdate':
      yield {
        kind: 'task',
        ...(i.taskId !== undefined ? { id: String(i.taskId) } : {}),
        ...(str(i.subject) ? { subject: str(i.subject)! } : {}),
        ...(i.status !== undefined ? { status: todoStatus(i.status) } : {}),
        ...base,
      };
      return;
    case 'ExitPlanMode':
      if (typeof i.plan === 'string') yield { kind: 'plan', text: i.plan, ...base };
      return;
    case 'Edit':
    case 'MultiEdit':
      if (typeof i.file_path === 'string') yield { kind: 'file-edit', path: i.file_path, change: 'edit', ...base };
      return;
    case 'Write':
      if (typeof i.file_path === 'string') yield { kind: 'file-edit', path: i.file_path, change: 'create', ...base };
      return;
    case 'NotebookEdit':
      if (typeof i.notebook_path === 'string')
        yield { kind: 'file-edit', path: i.notebook_path, change: 'edit', ...base };
      return;
    case 'Bash':
      if (typeof i.command === 'string') yield { kind: 'shell', command: i.command, ...(id ? { id } : {}), ...base };
      return;
    default:
      yield* toolEvents(name, id, input, base);
  }
}
