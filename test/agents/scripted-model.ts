// A scripted model server on 127.0.0.1 that speaks the four APIs the real agents use
// (Anthropic messages, Gemini generateContent, OpenAI Responses, OpenAI chat completions),
// logs every request body, and answers from one script: a todo update, a file write, a
// shell command, then text. The step is the number of tool results since the user's last
// own message, so every session (and every resumed one) walks the same script.
// No dependencies; loopback only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Step {
  /** Candidate tool names, first one the agent offers wins; absent: a text reply. */
  tools?: string[];
  /** Arguments per tool name (a string is sent raw: apply_patch's freeform input). */
  args?: (tool: string) => unknown;
  text?: string;
}

export interface Logged {
  path: string;
  body: any;
  /** The request serialised, for searching. */
  raw: string;
}

export interface ScriptedServer {
  url: string;
  port: number;
  requests: Logged[];
  /** Prompt tokens reported in the next `count` replies (all of them when absent), to force a compaction. */
  setUsage: (tokens: number, count?: number) => void;
  close: () => Promise<void>;
}

/**
 * What a summarizer writes unasked: prose, as Codex CLI's, pi's, Gemini CLI's and Copilot
 * CLI's do; its decision, abandoned approach and question are what summary-prose.ts reads.
 */
const SUMMARY =
  'Summary of the session so far: the task list, src/sum.js and npm test. We decided to export sum from src/sum.js, because the tests import it from there. Taking an array argument did not work, so I dropped it: callers pass two numbers. Should sum also accept strings?';
/** What a summarizer writes when our hook asked it for the handoff's sections (agents/harvest.ts reads it back). */
const STEERED = `${SUMMARY}

## Goal
- Add a sum helper in src/sum.js and run npm test

## Decisions
- Export sum from \`src/sum.js\` — why: the tests import it from there

## Tried and abandoned
- A sum over an array argument — why: callers pass two numbers

## Next steps
- Run npm test again after the next change`;
const steered = (raw: string) => raw.includes('git-handoff reads them into the handoff');

/** How many tool calls the model made since the user's last own message, per API shape. */
function stepOf(body: any): number {
  const items: Array<'call' | 'user' | 'other'> = [];
  const userText = (content: unknown) =>
    typeof content === 'string' ||
    (Array.isArray(content) &&
      content.some((b: any) => b?.type === 'text' || b?.type === 'input_text') &&
      !content.some((b: any) => b?.type === 'tool_result'));
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) {
      if (m.role === 'assistant') {
        const blocks = Array.isArray(m.content)
          ? m.content.filter((b: any) => b?.type === 'tool_use' || b?.type === 'toolCall')
          : [];
        const calls = blocks.length + (Array.isArray(m.tool_calls) ? m.tool_calls.length : 0);
        for (let i = 0; i < calls; i++) items.push('call');
      } else if (m.role === 'user' && userText(m.content)) items.push('user');
    }
  } else if (Array.isArray(body.contents)) {
    for (const c of body.contents) {
      const parts = Array.isArray(c.parts) ? c.parts : [];
      if (c.role === 'model') for (const p of parts) if (p.functionCall) items.push('call');
      if (
        c.role === 'user' &&
        parts.some((p: any) => typeof p.text === 'string') &&
        !parts.some((p: any) => p.functionResponse)
      )
        items.push('user');
    }
  } else if (Array.isArray(body.input)) {
    for (const it of body.input) {
      if (it.type === 'function_call' || it.type === 'custom_tool_call') items.push('call');
      else if (it.type === 'message' && it.role === 'user') items.push('user');
    }
  }
  let n = 0;
  for (let i = items.length - 1; i >= 0 && items[i] !== 'user'; i--) if (items[i] === 'call') n++;
  return n;
}

function offered(body: any): string[] {
  const names: string[] = [];
  for (const t of body.tools ?? []) {
    if (typeof t.name === 'string') names.push(t.name);
    if (typeof t.function?.name === 'string') names.push(t.function.name);
    for (const f of t.functionDeclarations ?? []) names.push(f.name);
  }
  return names;
}

interface Planned {
  text?: string;
  tool?: { name: string; args: unknown; id: string };
}

/** The text of the request's last user message (chat completions), where summarizers put their instructions. */
function lastUser(body: any): string {
  const users = Array.isArray(body.messages) ? body.messages.filter((m: any) => m?.role === 'user') : [];
  const content = users[users.length - 1]?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('\n') : '';
}

/** Summarizers that keep the tools on offer (Copilot CLI; Qwen Code's /compress) ask in the last user message. */
const SUMMARIZE =
  /create a detailed summary of the conversation|<state_snapshot>|summarize the conversation|summary of the conversation so far/i;

/** A request with no tools is a side request (a title, a compaction summary): text. */
function plan(script: Step[], body: any, raw: string, n: number): Planned {
  // Our pre-compact hook's instructions reach the summarizer's request alone (some keep the tools on offer).
  if (steered(raw)) return { text: STEERED };
  const tools = offered(body);
  if (tools.length === 0) return { text: /title/i.test(raw.slice(0, 3000)) ? 'Sum helper' : SUMMARY };
  if (SUMMARIZE.test(lastUser(body))) return { text: SUMMARY };
  // Steps whose tools this agent does not offer (yet) are left out of its script.
  const steps = script.filter((st) => !st.tools || st.tools.some((t) => tools.includes(t)));
  const step = steps[stepOf(body)] ?? {
    text: 'Done: the todo list is set, src/sum.js is written and npm test passes.',
  };
  const name = step.tools?.find((t) => tools.includes(t));
  if (!step.tools || !name) return { text: step.text ?? 'Done.' };
  return { tool: { name, args: step.args?.(name) ?? {}, id: `call_${n}` } };
}

const sse = (res: http.ServerResponse, events: Array<[string | undefined, unknown]>) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
};

function anthropic(res: http.ServerResponse, body: any, p: Planned, tokens: number): void {
  const block = p.tool
    ? { type: 'tool_use', id: `toolu_${p.tool.id}`, name: p.tool.name, input: p.tool.args }
    : { type: 'text', text: p.text ?? '' };
  const stop = p.tool ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: tokens, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [] as unknown[],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: [block], stop_reason: stop }));
    return;
  }
  const start = p.tool ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = p.tool
    ? { type: 'input_json_delta', partial_json: JSON.stringify(p.tool.args) }
    : { type: 'text_delta', text: p.text ?? '' };
  sse(res, [
    ['message_start', { type: 'message_start', message }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function gemini(res: http.ServerResponse, stream: boolean, p: Planned, tokens: number): void {
  const part = p.tool ? { functionCall: { name: p.tool.name, args: p.tool.args } } : { text: p.text ?? '' };
  const reply = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 10, totalTokenCount: tokens + 10 },
    modelVersion: 'gemini-2.5-pro',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
    return;
  }
  sse(res, [[undefined, reply]]);
}

function responses(res: http.ServerResponse, body: any, p: Planned, tokens: number): void {
  const id = `resp_${Date.now()}`;
  let item: Record<string, unknown>;
  if (p.tool && typeof p.tool.args === 'string')
    item = {
      type: 'custom_tool_call',
      id: `ctc_${p.tool.id}`,
      call_id: p.tool.id,
      name: p.tool.name,
      input: p.tool.args,
      status: 'completed',
    };
  else if (p.tool)
    item = {
      type: 'function_call',
      id: `fc_${p.tool.id}`,
      call_id: p.tool.id,
      name: p.tool.name,
      arguments: JSON.stringify(p.tool.args),
      status: 'completed',
    };
  else
    item = {
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: p.text ?? '', annotations: [] }],
    };
  const usage = {
    input_tokens: tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens + 10,
  };
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body.model,
    status: 'in_progress',
    output: [] as unknown[],
  };
  sse(res, [
    ['response.created', { type: 'response.created', response }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    [
      'response.completed',
      { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } },
    ],
  ]);
}

function chat(res: http.ServerResponse, body: any, p: Planned, tokens: number): void {
  const id = `chatcmpl-${Date.now()}`;
  const usage = { prompt_tokens: tokens, completion_tokens: 10, total_tokens: tokens + 10 };
  const call = p.tool
    ? [
        {
          index: 0,
          id: p.tool.id,
          type: 'function',
          function: { name: p.tool.name, arguments: JSON.stringify(p.tool.args) },
        },
      ]
    : undefined;
  const finish = p.tool ? 'tool_calls' : 'stop';
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: p.text ?? null, ...(call ? { tool_calls: call } : {}) },
            finish_reason: finish,
          },
        ],
        usage,
      }),
    );
    return;
  }
  sse(res, [
    [
      undefined,
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', ...(p.text ? { content: p.text } : {}), ...(call ? { tool_calls: call } : {}) },
            finish_reason: null,
          },
        ],
      },
    ],
    [undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage }],
    [undefined, '[DONE]'],
  ]);
}

export async function startScriptedServer(script: Step[], logFile?: (line: string) => void): Promise<ScriptedServer> {
  const requests: Logged[] = [];
  let tokens = 1200;
  let high: { tokens: number; left: number } | undefined;
  // A forced figure goes to the task's own turns (requests with tools), not to titles or summaries.
  let withTools = true;
  const usage = () => {
    if (!high) return tokens;
    if (!withTools) return 1200;
    if (high.left <= 0) return 1200;
    high.left--;
    return high.tokens;
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = req.url ?? '';
      let body: any = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { unparsed: raw };
      }
      requests.push({ path: `${req.method} ${url}`, body, raw });
      logFile?.(JSON.stringify({ path: `${req.method} ${url}`, body }));
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(url.includes('models') ? { data: [], models: [], object: 'list' } : {}));
        return;
      }
      if (url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: tokens }));
        return;
      }
      if (url.includes(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: tokens }));
        return;
      }
      const p = plan(script, body, raw, requests.length);
      withTools = offered(body).length > 0;
      if (url.includes('/messages')) anthropic(res, body, p, usage());
      else if (url.includes(':streamGenerateContent')) gemini(res, true, p, usage());
      else if (url.includes(':generateContent')) gemini(res, false, p, usage());
      else if (url.includes('/responses')) responses(res, body, p, usage());
      else if (url.includes('/chat/completions')) chat(res, body, p, usage());
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not scripted"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setUsage: (n, count) => {
      if (count === undefined) {
        tokens = n;
        high = undefined;
      } else high = { tokens: n, left: count };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
