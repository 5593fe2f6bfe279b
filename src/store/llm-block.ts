// The `llm:` block of .handoff/config.yml: its shape, defaults and parse. It is read with
// the rest of the config (store/config.ts); what the settings may do, and where the
// endpoint and the key come from, is decided by the model feature (model/llm-config.ts).
import { FileFormatError } from '../core/errors.js';

export interface LlmConfig {
  /** auto: use the model whenever an endpoint is configured; off: only with --llm. */
  mode: 'auto' | 'off';
  base_url?: string;
  model?: string;
  /** Seconds per request; a batch client's usual default (600 s) is far too long for a CLI. */
  timeout: number;
  /** Extra attempts after a 429, 5xx, timeout or connection error. */
  retries: number;
  /** First backoff delay; doubled per attempt, with jitter. */
  backoff_ms: number;
  /** Tokens of input the request may carry (prompt + data). */
  context_tokens: number;
  /** Tokens the answer may use. */
  max_output_tokens: number;
}

export const DEFAULT_LLM: LlmConfig = {
  mode: 'off',
  timeout: 60,
  retries: 2,
  backoff_ms: 500,
  context_tokens: 24_000,
  max_output_tokens: 2_000,
};

const EXAMPLES: Record<string, string> = {
  mode: 'mode: auto',
  base_url: 'base_url: http://localhost:11434/v1',
  model: 'model: gpt-4o-mini',
  timeout: 'timeout: 60',
  retries: 'retries: 2',
  backoff_ms: 'backoff_ms: 500',
  context_tokens: 'context_tokens: 24000',
  max_output_tokens: 'max_output_tokens: 2000',
};

export function parseLlmConfig(raw: unknown, file: string, warnings: string[]): LlmConfig {
  const bad = (key: string) =>
    new FileFormatError(
      file,
      `llm.${key} is not valid; expected e.g. llm: { ${EXAMPLES[key]} }${key === 'mode' ? ' (or off)' : ''}`,
    );
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    // The error is one line: the example is YAML's flow form of the block it stands for.
    throw new FileFormatError(file, 'llm must be a mapping, e.g. llm: { mode: auto }');
  const value: LlmConfig = { ...DEFAULT_LLM };
  for (const [key, v] of Object.entries(raw as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    switch (key) {
      case 'mode':
        if (v !== 'auto' && v !== 'off') throw bad(key);
        value.mode = v;
        break;
      case 'base_url':
      case 'model':
        if (typeof v !== 'string' || v.trim() === '') throw bad(key);
        value[key] = v.trim();
        break;
      case 'timeout':
        if (typeof v !== 'number' || !(v > 0)) throw bad(key);
        value.timeout = v;
        break;
      case 'retries':
      case 'backoff_ms':
      case 'context_tokens':
      case 'max_output_tokens':
        if (!Number.isInteger(v) || (v as number) < 0) throw bad(key);
        value[key] = v as number;
        break;
      case 'api_key':
        throw new FileFormatError(
          file,
          'llm.api_key is not read from a committed file; set OPENAI_API_KEY in the environment',
        );
      default:
        warnings.push(`${file}: unknown setting 'llm.${key}' ignored`);
    }
  }
  return value;
}
