// Cline's conversation (`~/.cline/data/sessions/<root id>/<id>.messages.json`): one
// pretty-printed JSON document `{version, updated_at, agent, sessionId, origin, messages[],
// system_prompt}`, read whole (the record number is the message's index). Messages hold
// Anthropic-style blocks: text (the user's task inside <user_input>), tool_use, tool_result;
// what a hook added is a user message marked `metadata.displayRole: "system"`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isObject, newStats, parseJson, str, type Lines, type ReadStats, type TranscriptEvent } from './events.js';
import { toolEvents } from './tools.js';

const USER_INPUT = /<user_input\b[^>]*>([\s\S]*?)<\/user_input>/;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => isObject(b) && b.type === 'text')
    .map((b) => str((b as Record<string, unknown>).text) ?? '')
    .join('\n');
}

/** Cline's data: $CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data. */
export function clineDataDir(env: NodeJS.ProcessEnv): string {
  if (env.CLINE_DATA_DIR) return env.CLINE_DATA_DIR;
  const base = env.CLINE_DIR ?? path.join(env.HOME ?? env.USERPROFILE ?? '', '.cline');
  return path.join(base, 'data');
}

/** The working directory in `<id>.json`, the session's metadata beside `<id>.messages.json`. */
export async function clineCwd(messagesFile: string): Promise<string | undefined> {
  if (!messagesFile.endsWith('.messages.json')) return undefined;
  const meta = parseJson(await readFile(messagesFile.replace(/\.messages\.json$/, '.json'), 'utf8').catch(() => ''));
  return isObject(meta) ? (str(meta.cwd) ?? str(meta.workspace_root)) : undefined;
}

export async function* readCline(
  lines: Lines,
  stats: ReadStats = newStats(),
  cwd?: string,
): AsyncGenerator<TranscriptEvent> {
  const parts: string[] = [];
  for await (const l of lines) parts.push(l);
  const doc = parseJson(parts.join('\n'));
  if (!isObject(doc) || !Array.isArray(doc.messages)) {
    stats.badLines++;
    return;
  }
  yield {
    kind: 'meta',
    line: 1,
    ...(str(doc.sessionId) ? { sessionId: str(doc.sessionId)! } : {}),
    ...(str(doc.updated_at) ? { start: str(doc.updated_at)! } : {}),
    ...(cwd ? { cwd } : {}),
  };
  let i = 0;
  for (const m of doc.messages) {
    i++;
    stats.records++;
    if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant')) {
      stats.unknown++;
      continue;
    }
    const line = { line: i };
    const metadata = isObject(m.metadata) ? m.metadata : {};
    if (typeof m.ts === 'number') yield { kind: 'time', line: i, at: new Date(m.ts).toISOString() };
    const blocks = Array.isArray(m.content) ? m.content.filter(isObject) : [];
    if (m.role === 'user') {
      for (const b of blocks)
        if (b.type === 'tool_result') {
          const id = str(b.tool_use_id);
          yield { kind: 'tool-result', ...(id ? { id } : {}), isError: b.is_error === true, ...line };
        }
      if (metadata.displayRole === 'system') continue;
      const raw = textOf(m.content);
      const text = USER_INPUT.exec(raw)?.[1] ?? (blocks.some((b) => b.type === 'tool_result') ? '' : raw);
      if (text.trim()) yield { kind: 'user', text: text.trim(), ...line };
      continue;
    }
    const said = textOf(m.content);
    if (said.trim()) yield { kind: 'assistant', text: said, ...line };
    for (const b of blocks) {
      if (b.type !== 'tool_use') continue;
      const name = str(b.name) ?? '';
      const id = str(b.id);
      yield { kind: 'tool-call', name, ...(id ? { id } : {}), input: b.input, ...line };
      yield* toolEvents(name, id, b.input, line);
    }
  }
}
