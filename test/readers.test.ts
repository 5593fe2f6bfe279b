// Readers and extraction on small in-memory inputs: formats the real fixtures do not cover.
import { describe, expect, it } from 'vitest';
import { Extractor, withinBudget } from '../src/transcripts/extract.js';
import { redactSecrets } from '../src/security/redact.js';
import { readClaudeCode } from '../src/transcripts/claude-code.js';
import { readCodex } from '../src/transcripts/codex.js';
import { detectFormat } from '../src/transcripts/detect.js';
import type { Agent, Lines, TranscriptEvent } from '../src/transcripts/events.js';
import { newStats } from '../src/transcripts/events.js';
import { readGeminiCli } from '../src/transcripts/gemini-cli.js';
import { readPi } from '../src/transcripts/pi.js';
import { fakeGithubToken } from './claude-lines.js';

async function* lines(records: unknown[]): Lines {
  for (const r of records) yield typeof r === 'string' ? r : JSON.stringify(r);
}
async function collect(it: AsyncIterable<TranscriptEvent>): Promise<TranscriptEvent[]> {
  const out: TranscriptEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}
async function extract(agent: Agent, it: AsyncIterable<TranscriptEvent>) {
  const x = new Extractor(agent);
  for await (const e of it) x.add(e);
  return x.result();
}

const patch =
  '*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** Update File: src/old.ts\n*** Move to: src/moved.ts\n@@\n-a\n+b\n*** Delete File: src/gone.ts\n*** End Patch\n';

describe('Codex rollouts', () => {
  it('reads apply_patch in all three encodings, update_plan and token_count', async () => {
    const rec = (type: string, payload: unknown) => ({ timestamp: '2026-11-20T10:00:00Z', type, payload });
    const ex = await extract(
      'codex',
      readCodex(
        lines([
          rec('session_meta', { id: 'c1', cwd: '/r' }),
          rec('response_item', { type: 'custom_tool_call', name: 'apply_patch', call_id: 'a', input: patch }),
          rec('response_item', {
            type: 'function_call',
            name: 'apply_patch',
            call_id: 'b',
            arguments: JSON.stringify({ input: patch.replace('new.ts', 'two.ts') }),
          }),
          rec('response_item', {
            type: 'function_call',
            name: 'shell',
            call_id: 'c',
            arguments: JSON.stringify({ command: ['apply_patch', patch.replace('new.ts', 'three.ts')] }),
          }),
          rec('response_item', {
            type: 'function_call',
            name: 'update_plan',
            call_id: 'd',
            arguments: JSON.stringify({
              plan: [
                { step: 'one', status: 'completed' },
                { step: 'two', status: 'in_progress' },
              ],
            }),
          }),
          rec('response_item', {
            type: 'function_call',
            name: 'exec_command',
            call_id: 'e',
            arguments: JSON.stringify({ cmd: 'cargo test', workdir: '/r' }),
          }),
          rec('event_msg', { type: 'exec_command_end', call_id: 'e', exit_code: 101 }),
          rec('event_msg', { type: 'token_count', info: null }),
          rec('event_msg', {
            type: 'token_count',
            info: {
              last_token_usage: { total_tokens: 5000 },
              total_token_usage: { total_tokens: 99999 },
              model_context_window: 10000,
            },
          }),
          rec('some_new_type', {}),
        ]),
      ),
    );
    expect(ex.files.map((f) => [f.path, f.change])).toEqual([
      ['src/new.ts', 'create'],
      ['src/moved.ts', 'rename'],
      ['src/gone.ts', 'delete'],
      ['src/two.ts', 'create'],
      ['src/three.ts', 'create'],
    ]);
    expect(ex.todos!.items).toEqual([
      { text: 'one', status: 'completed' },
      { text: 'two', status: 'in_progress' },
    ]);
    expect(ex.commands).toEqual([{ command: 'cargo test', passed: false, line: 6 }]);
    expect(ex.usage).toMatchObject({ contextTokens: 5000, window: 10000 });
  });
});

describe('Claude Code', () => {
  it('TaskCreate/TaskUpdate make the todo list; one API response over several lines counts once', async () => {
    const a = (content: unknown[], usage?: number, id = 'm1') => ({
      type: 'assistant',
      sessionId: 's',
      cwd: '/r',
      uuid: 'u',
      message: {
        id,
        model: 'claude-opus-4-5[1m]',
        content,
        ...(usage
          ? { usage: { input_tokens: usage, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }
          : {}),
      },
    });
    const events = await collect(
      readClaudeCode(
        lines([
          a([{ type: 'tool_use', id: 't1', name: 'TaskCreate', input: { subject: 'first' } }], 100, 'm1'),
          a([{ type: 'tool_use', id: 't2', name: 'TaskCreate', input: { subject: 'second' } }], 100, 'm1'),
          a(
            [{ type: 'tool_use', id: 't3', name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }],
            300,
            'm2',
          ),
          a([{ type: 'tool_use', id: 't4', name: 'SomeFutureTool', input: {} }]),
        ]),
      ),
    );
    const x = new Extractor('claude-code');
    for (const e of events) x.add(e);
    const ex = x.result();
    expect(ex.todos!.items).toEqual([
      { text: 'first', status: 'completed' },
      { text: 'second', status: 'pending' },
    ]);
    expect(ex.usage!.contextTokens).toBe(300);
    expect(events.filter((e) => e.kind === 'tool-call').map((e) => (e as { name: string }).name)).toContain(
      'SomeFutureTool',
    );
  });
});

describe('Gemini CLI JSONL and pi', () => {
  it('reads the JSONL chat with $set records', async () => {
    const ex = await extract(
      'gemini-cli',
      readGeminiCli(
        lines([
          { sessionId: 'g1', projectHash: 'abc', startTime: '2026-11-20T10:00:00Z' },
          { id: '1', type: 'user', content: [{ text: 'Prefer small commits.' }] },
          { $set: { lastUpdated: '2026-11-20T10:05:00Z' } },
          {
            id: '2',
            type: 'gemini',
            content: 'ok',
            toolCalls: [{ id: 'w', name: 'write_file', args: { file_path: 'a.txt' }, status: 'success' }],
            tokens: { input: 900 },
            model: 'gemini-2.5-pro',
          },
          '{"id":"3","type":"us',
        ]),
        newStats(),
      ),
    );
    expect(ex.sessionId).toBe('g1');
    expect(ex.constraints.map((c) => c.text)).toEqual(['Prefer small commits.']);
    expect(ex.files[0]).toMatchObject({ path: 'a.txt', change: 'create' });
    expect(ex.usage).toMatchObject({ contextTokens: 900, model: 'gemini-2.5-pro' });
  });

  it("Gemini CLI 0.61: injected <hook_context> is not the user's words; a resumed header and a rewritten history are understood", async () => {
    const stats = newStats();
    const events = await collect(
      readGeminiCli(
        lines([
          { sessionId: 'g2', projectHash: 'abc', startTime: '2026-11-20T10:00:00Z', kind: 'main' },
          {
            id: '1',
            type: 'user',
            content: [{ text: '<hook_context>Pins: keep &lt;Widget&gt;. The user said: never push.</hook_context>' }],
          },
          {
            id: '2',
            type: 'user',
            content: [{ text: '<hook_context>resume prompt</hook_context>\n\nAdd the sum helper.' }],
          },
          { id: '3', type: 'gemini', content: 'ok', tokens: { input: 900 } },
          { $set: { messages: [{ id: 's', type: 'user', content: [{ text: 'summary' }] }] } },
          { sessionId: 'g2', projectHash: 'abc', startTime: '2026-11-20T11:00:00Z', kind: 'main' },
          { id: '4', type: 'user', content: [{ text: 'Go on.' }] },
        ]),
        stats,
      ),
    );
    expect(events.filter((e) => e.kind === 'user').map((e) => (e as { text: string }).text.trim())).toEqual([
      'Add the sum helper.',
      'Go on.',
    ]);
    expect(events.filter((e) => e.kind === 'compaction')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'meta')).toHaveLength(2);
    expect(stats.unknown).toBe(0);
  });

  it("pi 0.73: an extension's custom_message is known and not the user's words", async () => {
    const stats = newStats();
    const events = await collect(
      readPi(
        lines([
          { type: 'session', version: 3, id: 'p2', cwd: '/r', timestamp: '2026-11-20T10:00:00Z' },
          { type: 'custom_message', customType: 'handoff-resume', content: 'the resume prompt', display: false },
          { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'Add it.' }] } },
        ]),
        stats,
      ),
    );
    expect(events.filter((e) => e.kind === 'user').map((e) => (e as { text: string }).text)).toEqual(['Add it.']);
    expect(stats.unknown).toBe(0);
  });

  it('pi: usage before a compaction does not count', async () => {
    const ex = await extract(
      'pi',
      readPi(
        lines([
          { type: 'session', id: 'p1', cwd: '/r', timestamp: '2026-11-20T10:00:00Z' },
          {
            type: 'message',
            message: {
              role: 'assistant',
              content: [{ type: 'toolCall', id: 'x', name: 'edit', arguments: { path: 'src/a.ts' } }],
              usage: { input: 100, cacheRead: 50000, cacheWrite: 0 },
            },
          },
          { type: 'compaction', summary: 's', details: { readFiles: ['README.md'], modifiedFiles: ['src/b.ts'] } },
        ]),
      ),
    );
    expect(ex.usage).toBeUndefined();
    expect(ex.counts.compactions).toBe(1);
    expect(ex.files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
  });
});

describe('detection by content', () => {
  it('names each format from its first bytes, not its file name', () => {
    const b = (s: string) => Buffer.from(s);
    expect(detectFormat(b('{"type":"summary","summary":"x","leafUuid":"u"}\n'))).toBe('claude-code');
    expect(detectFormat(b('{"timestamp":"t","type":"session_meta","payload":{}}\n'))).toBe('codex');
    expect(detectFormat(b('{"type":"session","id":"p","cwd":"/r"}\n'))).toBe('pi');
    expect(detectFormat(b('{\n  "sessionId": "g",\n  "projectHash": "h",\n  "messages": []\n}'))).toBe('gemini-cli');
    expect(detectFormat(b('# aider chat started at 2024-08-05 19:33:02\n'))).toBe('aider');
    expect(detectFormat(b('<!-- Generated by SpecStory -->\n'))).toBe('specstory');
    expect(detectFormat(Buffer.concat([b('SQLite format 3\0'), Buffer.alloc(100)]))).toBe('opencode');
    expect(detectFormat(b('{"name":"package"}\n'))).toBeUndefined();
    expect(detectFormat(b('hello\n'))).toBeUndefined();
  });
});

describe('extraction rules', () => {
  it('withinBudget keeps the newest turns and cuts an oversized one from the front', () => {
    const count = (t: string) => t.length;
    const turns = [
      { text: 'aaaa', line: 1 },
      { text: 'bbbb', line: 2 },
      { text: 'cc', line: 3 },
    ];
    expect(withinBudget(turns, 6, count)).toEqual({
      kept: [
        { text: 'bbbb', line: 2 },
        { text: 'cc', line: 3 },
      ],
      tokens: 6,
      dropped: 1,
    });
    expect(withinBudget([{ text: '0123456789', line: 1 }], 4, count).kept[0]!.text).toBe('…6789');
  });
});

describe('redactSecrets (gitleaks rules and ours)', () => {
  it('redacts library-detected and extra shapes, keeping offsets of the original text', () => {
    const aws = 'AKIA' + 'QWERTYUIOPASDFGH';
    const url = 'postgres://admin:' + 'S3cretPassw0rd' + '@db.example.com:5432/app';
    const text = `token ${fakeGithubToken()} key ${aws} db ${url} end`;
    const r = redactSecrets(text);
    expect(r.text).not.toContain(fakeGithubToken());
    expect(r.text).not.toContain(aws);
    expect(r.text).not.toContain('S3cretPassw0rd');
    expect(r.text.startsWith('token [REDACTED:github-pat] key [REDACTED:aws-access-token] db ')).toBe(true);
    expect(r.redactions[0]).toEqual({ kind: 'github-pat', index: 6 });
    expect(redactSecrets('nothing here').redactions).toEqual([]);
  });
});

describe("the agent's own compaction summary on the compaction event", () => {
  it('Claude Code: the isCompactSummary record after the boundary, from "Summary:" on', async () => {
    const base = { sessionId: 's1', cwd: '/r', version: '2.1.330' };
    const events = await collect(
      readClaudeCode(
        lines([
          { ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'Fix the parser.' } },
          { ...base, type: 'system', uuid: 'b1', subtype: 'compact_boundary', compactMetadata: { trigger: 'manual' } },
          {
            ...base,
            type: 'user',
            uuid: 'u2',
            isCompactSummary: true,
            message: {
              role: 'user',
              content: 'This session is being continued from a previous conversation. Summary:\nThe parser is fixed.',
            },
          },
          { ...base, type: 'system', uuid: 'b2', subtype: 'compact_boundary' },
        ]),
      ),
    );
    expect(events.filter((e) => e.kind === 'compaction')).toEqual([
      { kind: 'compaction', summary: 'The parser is fixed.', line: 2 },
      { kind: 'compaction', line: 4 },
    ]);
    expect(events.filter((e) => e.kind === 'user').map((e) => (e as { text: string }).text)).toEqual([
      'Fix the parser.',
    ]);
  });

  it("Codex CLI: the compacted record's message, less its preamble", async () => {
    const events = await collect(
      readCodex(
        lines([
          {
            timestamp: '2026-11-24T00:00:00Z',
            type: 'compacted',
            payload: {
              message:
                'Another language model started to solve this problem and produced a summary of its thinking process:\nThe parser is fixed.',
              replacement_history: [],
            },
          },
        ]),
      ),
    );
    expect(events.filter((e) => e.kind === 'compaction')).toEqual([
      { kind: 'compaction', summary: 'The parser is fixed.', line: 1 },
    ]);
  });

  it('Gemini CLI: the first user message of the rewritten history', async () => {
    const events = await collect(
      readGeminiCli(
        lines([
          { sessionId: 's1', projectHash: 'h', startTime: '2026-11-24T00:00:00Z' },
          { id: 'm1', type: 'user', content: [{ text: 'Fix the parser.' }] },
          {
            $set: {
              messages: [
                { id: 'm2', type: 'user', content: [{ text: '<state_snapshot>parser fixed</state_snapshot>' }] },
                { id: 'm3', type: 'gemini', content: 'Got it. Thanks for the additional context!' },
              ],
            },
          },
        ]),
      ),
    );
    expect(events.filter((e) => e.kind === 'compaction')).toEqual([
      { kind: 'compaction', summary: '<state_snapshot>parser fixed</state_snapshot>', line: 3 },
    ]);
  });
});
