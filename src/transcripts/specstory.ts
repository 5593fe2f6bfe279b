// SpecStory Markdown exports (Cursor, Claude Code, Codex): `_**User (ts)**_` and
// `_**Agent (model ts)**_` start turns; `<tool-use data-tool-type=... data-tool-name=...>`
// blocks hold tool calls, whose output we drop.
import { newStats, type Lines, type ReadStats, type TranscriptEvent } from './events.js';

export async function* readSpecStory(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  let n = 0;
  let role: 'user' | 'assistant' | undefined;
  let buf: string[] = [];
  let bufLine = 0;
  let tool: { type: string; name: string; line: number; lines: string[] } | undefined;
  const flush = function* (): Generator<TranscriptEvent> {
    const text = buf.join('\n').trim();
    if (role && text) yield { kind: role, text, line: bufLine };
    buf = [];
  };
  for await (const line of lines) {
    n++;
    stats.records++;
    const session = /^<!-- .*Session ([0-9a-f-]{8,}) \(([^)]*)\) -->$/.exec(line);
    if (session) {
      yield { kind: 'meta', line: n, sessionId: session[1]!, start: session[2]! };
      continue;
    }
    if (tool) {
      tool.lines.push(line);
      if (line.includes('</tool-use>')) {
        yield* toolBlock(tool);
        tool = undefined;
      }
      continue;
    }
    const start = /<tool-use data-tool-type="([^"]*)" data-tool-name="([^"]*)"/.exec(line);
    if (start) {
      yield* flush();
      tool = { type: start[1]!, name: start[2]!, line: n, lines: [line] };
      if (line.includes('</tool-use>')) {
        yield* toolBlock(tool);
        tool = undefined;
      }
      continue;
    }
    const turn = /^_\*\*(User|Agent|Assistant)\b[^*]*\*\*_\s*$/.exec(line);
    if (turn) {
      yield* flush();
      role = turn[1] === 'User' ? 'user' : 'assistant';
      bufLine = n + 1;
      continue;
    }
    if (line === '---' && role === 'user') {
      yield* flush();
      continue;
    }
    if (buf.length === 0) bufLine = n;
    buf.push(line);
  }
  yield* flush();
}

function* toolBlock(tool: { type: string; name: string; line: number; lines: string[] }): Generator<TranscriptEvent> {
  const base = { line: tool.line };
  yield { kind: 'tool-call', name: tool.name, input: null, ...base };
  const body = tool.lines.join('\n');
  if (tool.type === 'write') {
    const path =
      /The file (\S+) has been (?:updated|created)/.exec(body)?.[1] ??
      /^\s*`([^`\s]+\.[A-Za-z0-9]+)`\s*$/m.exec(body)?.[1];
    if (path)
      yield { kind: 'file-edit', path, change: /has been created|Write/.test(body) ? 'create' : 'edit', ...base };
  } else if (tool.type === 'shell') {
    const command = /^`([^`]+)`\s*$/m.exec(body)?.[1];
    if (command) yield { kind: 'shell', command, ...base };
  }
}
