// Aider's .aider.chat.history.md: `# aider chat started at` opens a session, `#### `
// lines are user input, `> ` lines quote tool output (Applied edit to, Commit, Tokens),
// everything else is the assistant's reply. Aider runs at the repository root.
import { newStats, type Lines, type ReadStats, type TranscriptEvent } from './events.js';

function tokens(v: string): number {
  const m = /^([\d.,]+)([km]?)$/i.exec(v.trim());
  if (!m) return 0;
  const n = Number(m[1]!.replace(/,/g, ''));
  return Math.round(n * (m[2]!.toLowerCase() === 'k' ? 1000 : m[2]!.toLowerCase() === 'm' ? 1_000_000 : 1));
}

export async function* readAider(lines: Lines, stats: ReadStats = newStats()): AsyncGenerator<TranscriptEvent> {
  let n = 0;
  let user: { text: string[]; line: number } | undefined;
  let reply: { text: string[]; line: number } | undefined;
  const flushUser = function* (): Generator<TranscriptEvent> {
    if (user) yield { kind: 'user', text: user.text.join('\n'), line: user.line };
    user = undefined;
  };
  const flushReply = function* (): Generator<TranscriptEvent> {
    if (reply?.text.join('').trim()) yield { kind: 'assistant', text: reply.text.join('\n').trim(), line: reply.line };
    reply = undefined;
  };
  for await (const line of lines) {
    n++;
    stats.records++;
    const started = /^# aider chat started at (.+)$/.exec(line);
    if (started) {
      yield* flushUser();
      yield* flushReply();
      yield { kind: 'meta', line: n, start: started[1]!.trim() };
      continue;
    }
    if (line.startsWith('#### ')) {
      yield* flushReply();
      const text = line.slice(5);
      const run = /^\/(?:run|test)\s+(.+)$/.exec(text);
      if (run) yield { kind: 'shell', command: run[1]!, line: n };
      user ??= { text: [], line: n };
      user.text.push(text);
      continue;
    }
    yield* flushUser();
    if (line.startsWith('> ') || line === '>') {
      const q = line.slice(2);
      const applied = /^Applied edit to (.+)$/.exec(q);
      if (applied) yield { kind: 'file-edit', path: applied[1]!.trim(), change: 'edit', line: n };
      const sent = /^Tokens: ([\d.,]+[km]?) sent/i.exec(q);
      if (sent) yield { kind: 'usage', contextTokens: tokens(sent[1]!), line: n };
      continue;
    }
    reply ??= { text: [], line: n };
    reply.text.push(line);
  }
  yield* flushUser();
  yield* flushReply();
}
