// The normalised event stream every transcript reader yields, whatever the agent.
// `line` is the 1-based line (or record number) of the source, so every item a draft
// takes from a transcript traces back to it.

export type Agent =
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'pi'
  | 'aider'
  | 'specstory'
  | 'opencode'
  | 'copilot'
  | 'cline'
  | 'qwen';

export type TodoStatus = 'completed' | 'in_progress' | 'pending';
export type EditKind = 'edit' | 'create' | 'delete' | 'rename';

interface Base {
  line: number;
  /** Text from a subagent (sidechain), kept apart from the main thread. */
  sidechain?: boolean;
}

export type TranscriptEvent =
  | (Base & { kind: 'meta'; sessionId?: string; cwd?: string; start?: string; model?: string; version?: string })
  | (Base & { kind: 'user'; text: string })
  | (Base & { kind: 'assistant'; text: string })
  | (Base & { kind: 'tool-call'; name: string; id?: string; input: unknown })
  | (Base & { kind: 'tool-result'; id?: string; isError: boolean })
  | (Base & { kind: 'file-edit'; path: string; change: EditKind; from?: string })
  | (Base & { kind: 'shell'; command: string; id?: string; exitCode?: number })
  | (Base & { kind: 'todos'; items: Array<{ text: string; status: TodoStatus }> })
  | (Base & { kind: 'task'; id?: string; subject?: string; status?: TodoStatus })
  | (Base & { kind: 'plan'; text: string })
  /** summary: the agent's own summary of what the compaction dropped, where its transcript keeps it. */
  | (Base & { kind: 'compaction'; summary?: string })
  | (Base & { kind: 'usage'; contextTokens: number; window?: number; model?: string; responseId?: string })
  | (Base & { kind: 'time'; at: string });

/** What a reader could not use: counted, never fatal. */
export interface ReadStats {
  records: number;
  /** Lines that were not valid JSON (a truncated last line counts here). */
  badLines: number;
  /** Records of a type the reader does not know. */
  unknown: number;
}

export const newStats = (): ReadStats => ({ records: 0, badLines: 0, unknown: 0 });

export type Lines = AsyncIterable<string>;

export function todoStatus(raw: unknown): TodoStatus {
  const s = String(raw ?? '').toLowerCase();
  if (s === 'completed' || s === 'done' || s === 'complete') return 'completed';
  if (s === 'in_progress' || s === 'in-progress' || s === 'inprogress' || s === 'active') return 'in_progress';
  return 'pending';
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The JSON-object records of a JSONL transcript with their 1-based line numbers. Blank
 * lines are skipped; a line that is not a JSON object (a truncated last line, say) is
 * counted in `stats.badLines` and skipped.
 */
export async function* jsonRecords(
  lines: Lines,
  stats: ReadStats,
): AsyncGenerator<{ n: number; rec: Record<string, unknown> }> {
  let n = 0;
  for await (const raw of lines) {
    n++;
    if (raw.trim() === '') continue;
    const rec = parseJson(raw);
    if (!isObject(rec)) {
      stats.badLines++;
      continue;
    }
    stats.records++;
    yield { n, rec };
  }
}
