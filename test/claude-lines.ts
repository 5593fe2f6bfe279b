// Builders for synthetic Claude Code session lines (the 2.x envelope), for tests and
// the benchmark's shape. Secrets are assembled at run time so no scanner flags this file.
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export interface Envelope {
  cwd: string;
  sessionId?: string;
  sidechain?: boolean;
}

function envelope(e: Envelope, type: string, message: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: e.sidechain ?? false,
    userType: 'external',
    cwd: e.cwd,
    sessionId: e.sessionId ?? 'sess-1',
    version: '2.0.64',
    gitBranch: 'main',
    type,
    message,
    uuid: uuid(),
    timestamp: '2026-11-20T10:00:00.000Z',
    ...extra,
  });
}

export const user = (e: Envelope, text: string) => envelope(e, 'user', { role: 'user', content: text });
export const assistantText = (e: Envelope, text: string, usage?: number, id = uuid()) =>
  envelope(e, 'assistant', {
    id,
    model: 'claude-sonnet-4-5',
    role: 'assistant',
    content: [{ type: 'text', text }],
    ...(usage !== undefined
      ? {
          usage: {
            input_tokens: 10,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: usage - 10,
            output_tokens: 5,
          },
        }
      : {}),
  });
export const tool = (e: Envelope, name: string, input: unknown, id: string) =>
  envelope(e, 'assistant', {
    id: `msg-${id}`,
    model: 'claude-sonnet-4-5',
    role: 'assistant',
    content: [{ type: 'tool_use', id, name, input }],
  });
export const result = (e: Envelope, id: string, isError: boolean, text = 'output') =>
  envelope(e, 'user', {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: isError }],
  });
export const compact = (e: Envelope) =>
  envelope(e, 'system', undefined, {
    subtype: 'compact_boundary',
    compactMetadata: { trigger: 'auto', preTokens: 150000 },
  });
export const unknownRecord = (e: Envelope) => envelope(e, 'some-future-record', { whatever: true });

/** A fake but realistically shaped GitHub token. */
export const fakeGithubToken = () => 'gh' + 'p_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
