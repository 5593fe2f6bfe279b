// A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, scripted per
// request, and an asynchronous CLI runner (spawnSync would block the server's event loop).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, gitEnv, runAsync, type RunResult } from './helpers.js';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body as sent; default: a completion carrying `content`. */
  body?: unknown;
  /** A body sent as it is, not as JSON (local servers answer errors in plain text). */
  text?: string;
  content?: string;
  delayMs?: number;
}

export interface Received {
  body: Record<string, any>;
  /** All message contents joined, for searching. */
  text: string;
  /** The Authorization header as received (which key, if any, reached this endpoint). */
  authorization: string | undefined;
  /** Where the request went and how it was sent. */
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
}

export interface ModelServer {
  url: string;
  requests: Received[];
  close: () => Promise<void>;
}

export function completion(content: string): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

export function apiError(status: number, message: string, code: string | null = null): Reply {
  return { status, body: { error: { message, type: 'invalid_request_error', param: null, code } } };
}

/** Answers request n with script(n, body); the last reply repeats when the script is a list. */
export async function startModelServer(
  script: Reply[] | ((n: number, body: Record<string, any>) => Reply),
): Promise<ModelServer> {
  const requests: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      const n = requests.length;
      requests.push({
        body,
        text: (body.messages ?? []).map((m: { content: string }) => m.content).join('\n'),
        authorization: req.headers.authorization,
        method: req.method,
        url: req.url,
        contentType: req.headers['content-type'],
      });
      const reply = typeof script === 'function' ? script(n, body) : script[Math.min(n, script.length - 1)]!;
      const send = () => {
        if (res.destroyed) return;
        const type = reply.text === undefined ? 'application/json' : 'text/plain';
        res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
        res.end(reply.text ?? JSON.stringify(reply.body ?? completion(reply.content ?? '{}')));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function runHandoffAsync(cwd: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runAsync(process.execPath, [BIN, ...args], { cwd, env: gitEnv(env) });
}
