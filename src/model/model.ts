// The chat-completions call: one POST with node's own fetch, no SDK (the OpenAI SDK was
// most of an installed handoff's size, for the one request this makes).
// Timeouts and retries are ours: a deadline per attempt covering the answer's body, and
// bounded exponential backoff with jitter on 429 and 5xx, honouring Retry-After, so a
// context-length error can be told apart and handled. Servers vary (OpenAI, Ollama, vLLM,
// LM Studio): errors are read as OpenAI shapes them (`{error: {message, code, param}}`)
// and as plain text otherwise, and every reply is read defensively.
import type { ChatMessage } from './model-prompt.js';
import { ANSWER_SCHEMA } from './model-answer.js';

export interface ModelCall {
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  maxOutputTokens: number;
  /** What this server turned out to reject, learned on the way and kept for the next call. */
  quirks?: Quirks;
}

export interface Quirks {
  /** Newer OpenAI models reject max_tokens and want max_completion_tokens; most local servers want max_tokens. */
  maxCompletionTokens?: boolean;
  /** Reasoning models accept only the default temperature. */
  noTemperature?: boolean;
}

/** How strictly we ask for JSON; servers without structured outputs reject the stricter ones. */
export type JsonMode = 'json_schema' | 'json_object' | 'none';

export class ModelFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'context-length' | 'unsupported-format' | 'failed',
  ) {
    super(message);
  }
}

export interface CallEvents {
  /** Called before each backoff wait, with the reason and the wait. */
  retrying: (why: string, waitMs: number, attempt: number) => void;
}

const MAX_WAIT_MS = 10_000;

export function requestBody(
  call: Pick<ModelCall, 'model' | 'maxOutputTokens' | 'quirks'>,
  messages: ChatMessage[],
  mode: JsonMode,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: call.model, messages };
  if (!call.quirks?.noTemperature) body.temperature = 0;
  body[call.quirks?.maxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = call.maxOutputTokens;
  if (mode === 'json_schema')
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'handoff', strict: true, schema: ANSWER_SCHEMA },
    };
  if (mode === 'json_object') body.response_format = { type: 'json_object' };
  return body;
}

function backoff(base: number, attempt: number, retryAfter: string | null | undefined): number {
  const seconds = retryAfter !== null && retryAfter !== undefined ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
  // +-20% jitter so many clients hitting one server do not retry in step.
  return Math.min(base * 2 ** attempt * (0.8 + Math.random() * 0.4), MAX_WAIT_MS);
}

const CONTEXT =
  /context.length|context.window|context size|maximum context|too many tokens|prompt is too long|reduce the length/i;

export interface Completion {
  content: string;
  /** "length" means the answer was cut at max_tokens. */
  finishReason: string | null;
}

/** An HTTP error as the server explained it: OpenAI's `{error: {message, code, param}}`, else the body's text. */
interface HttpError {
  status: number;
  message: string;
  code: unknown;
  param: unknown;
  retryAfter: string | null;
}

async function httpError(response: Response): Promise<HttpError> {
  const text = await response.text().catch(() => '');
  let error: { message?: unknown; code?: unknown; param?: unknown } | undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === 'object' && body.error !== null) error = body.error as typeof error;
    else if (typeof body?.error === 'string') error = { message: body.error };
  } catch {
    error = undefined;
  }
  const said = typeof error?.message === 'string' ? error.message : error ? JSON.stringify(error) : text.trim();
  return {
    status: response.status,
    message: `${response.status} ${said || 'status code (no body)'}`.slice(0, 2000),
    code: error?.code,
    param: error?.param,
    retryAfter: response.headers.get('retry-after'),
  };
}

/** The innermost cause's message: fetch says only "fetch failed", the socket says why. */
function reason(error: unknown): string {
  let e = error;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

export async function complete(
  call: ModelCall,
  messages: ChatMessage[],
  mode: JsonMode,
  events: CallEvents,
): Promise<Completion> {
  const url = `${(call.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/chat/completions`;
  for (let attempt = 0; ; attempt++) {
    let why: string;
    let retryAfter: string | null | undefined;
    const deadline = AbortSignal.timeout(call.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${call.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(requestBody(call, messages, mode)),
        signal: deadline,
      });
      if (response.ok) {
        const text = await response.text();
        let reply: { choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }> };
        try {
          reply = JSON.parse(text);
        } catch {
          throw new ModelFailure(`the server's answer is not JSON: ${text.slice(0, 200)}`, 'failed');
        }
        const choice = reply?.choices?.[0];
        return { content: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? null };
      }
      const error = await httpError(response);
      const message = error.message;
      if (
        error.code === 'context_length_exceeded' ||
        ((error.status === 400 || error.status === 413) && CONTEXT.test(message))
      ) {
        throw new ModelFailure(`the request is longer than the model's context (${message})`, 'context-length');
      }
      const quirks = (call.quirks ??= {});
      if (error.status === 400 && /max_tokens/.test(message) && !quirks.maxCompletionTokens) {
        quirks.maxCompletionTokens = true; // not a failure: ask again at once, the right way
        attempt--;
        continue;
      }
      if (error.status === 400 && /temperature/.test(message) && !quirks.noTemperature) {
        quirks.noTemperature = true;
        attempt--;
        continue;
      }
      if (error.status === 429 || error.status >= 500) {
        why = `HTTP ${error.status}`;
        retryAfter = error.retryAfter;
      } else if (
        error.status === 400 &&
        mode !== 'none' &&
        (error.param === 'response_format' ||
          /response_format|json_schema|json_object|structured output|grammar/i.test(message))
      ) {
        throw new ModelFailure(`the server does not support ${mode} (${message})`, 'unsupported-format');
      } else {
        throw new ModelFailure(`HTTP ${error.status}: ${message}`, 'failed');
      }
    } catch (error) {
      if (error instanceof ModelFailure) throw error;
      if (deadline.aborted) why = `no answer within ${call.timeoutMs / 1000} s`;
      else if (error instanceof TypeError) why = `cannot connect (${reason(error)})`;
      else throw error;
    }
    if (attempt >= call.retries)
      throw new ModelFailure(`${why} after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}`, 'failed');
    const wait = backoff(call.backoffMs, attempt, retryAfter);
    events.retrying(why, wait, attempt + 1);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
