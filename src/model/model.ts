// The chat-completions call: the only importer of the openai SDK, loaded lazily (it is
// large) so no other command pays for it.
// SDK quirks: an API key string is always required, even by local servers that ignore
// it; its defaults (2 retries, 600 s timeout) suit a batch job, not an interactive CLI,
// so its retries are off and ours apply: bounded exponential backoff with jitter,
// honouring Retry-After, so a context-length error can be told apart and handled.
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

export async function complete(
  call: ModelCall,
  messages: ChatMessage[],
  mode: JsonMode,
  events: CallEvents,
): Promise<Completion> {
  const { default: OpenAI, APIError, APIConnectionError, APIConnectionTimeoutError } = await import('openai');
  const client = new OpenAI({
    apiKey: call.apiKey,
    ...(call.baseURL ? { baseURL: call.baseURL } : {}),
    maxRetries: 0,
    timeout: call.timeoutMs,
  });
  for (let attempt = 0; ; attempt++) {
    let why: string;
    let retryAfter: string | null | undefined;
    try {
      const reply = await client.chat.completions.create(requestBody(call, messages, mode) as never);
      // Local servers vary: read the reply defensively rather than trust the SDK's types.
      const choice = (
        reply as { choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }> }
      ).choices?.[0];
      return { content: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? null };
    } catch (error) {
      if (error instanceof APIConnectionTimeoutError) {
        why = `no answer within ${call.timeoutMs / 1000} s`;
      } else if (error instanceof APIConnectionError) {
        why = `cannot connect (${error.cause instanceof Error ? error.cause.message : error.message})`;
      } else if (error instanceof APIError && typeof error.status === 'number') {
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
          retryAfter = error.headers?.get('retry-after');
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
      } else {
        throw error;
      }
    }
    if (attempt >= call.retries)
      throw new ModelFailure(`${why} after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}`, 'failed');
    const wait = backoff(call.backoffMs, attempt, retryAfter);
    events.retrying(why, wait, attempt + 1);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
