// Where the model's endpoint comes from (the `llm:` block's shape is store/llm-block.ts). The API key
// only ever comes from the environment (OPENAI_API_KEY): a config file is committed.
import type { LlmConfig } from '../store/llm-block.js';

export interface Endpoint {
  baseURL: string | undefined;
  model: string | undefined;
  /** Sent as the bearer token; 'not-needed' where no key may go (local servers ignore it). */
  apiKey: string;
  /** True when the user pointed us at something: a base URL, a key or a model. */
  configured: boolean;
}

/**
 * What the user set on this machine: the environment (OPENAI_BASE_URL, OPENAI_API_KEY,
 * HANDOFF_MODEL, HANDOFF_LLM) and git config outside the repository's files
 * (handoff.llm, handoff.baseUrl, handoff.model in --global, --local or --system).
 * .handoff/config.yml is committed: anyone who can open a pull request wrote it.
 */
export interface UserLlm {
  mode?: 'auto' | 'off';
  baseURL?: string;
  /** Where baseURL came from: OPENAI_BASE_URL sits beside OPENAI_API_KEY, git config does not. */
  baseURLFrom?: 'env' | 'git';
  /** git config handoff.sendKey: the one endpoint the user ties OPENAI_API_KEY to, beyond OpenAI's own and OPENAI_BASE_URL. */
  keyFor?: string;
  model?: string;
  apiKey?: string;
}

export interface ModelChoice {
  use: boolean;
  endpoint: Endpoint;
  /** One line for stderr when the committed file asked for something the user has not agreed to. */
  note?: string;
}

/**
 * The trust boundary: the endpoint, the key and turning the model on come from the user's
 * own settings. The committed file may name a model and tune limits; a `base_url` in it is
 * used only once the user has set the same URL locally (that is the approval), and its
 * `mode: auto` turns the model on only towards an endpoint the user chose.
 */
export function chooseModel(flag: boolean | undefined, llm: LlmConfig, user: UserLlm, file: string): ModelChoice {
  const committedUrl = llm.base_url;
  const model = user.model || llm.model;
  // The key goes to OpenAI's own endpoint, to OPENAI_BASE_URL (set beside it), or to the one
  // URL the user tied it to: never to a URL merely copied into git config from a refusal line.
  const keyGoes =
    user.apiKey !== undefined &&
    (user.baseURL === undefined || user.baseURLFrom === 'env' || sameEndpoint(user.keyFor, user.baseURL));
  const endpoint: Endpoint = {
    baseURL: user.baseURL,
    model,
    apiKey: keyGoes ? user.apiKey! : 'not-needed',
    configured: Boolean(user.baseURL || user.apiKey) && Boolean(model),
  };
  const withheld =
    user.apiKey !== undefined && !keyGoes
      ? `OPENAI_API_KEY is not sent to ${user.baseURL}, an endpoint set in git config; to send it there: git config handoff.sendKey ${user.baseURL}`
      : undefined;
  const refusal =
    committedUrl !== undefined && user.baseURL === undefined
      ? `${file} names the model endpoint ${committedUrl}, which you have not approved; nothing is sent there (approve it with: git config handoff.baseUrl ${committedUrl})`
      : undefined;
  const mode =
    flag === undefined
      ? (user.mode ?? (llm.mode === 'auto' && !user.baseURL ? 'committed-auto' : llm.mode))
      : flag
        ? 'auto'
        : 'off';
  if (mode === 'off') return { use: false, endpoint };
  if (mode === 'committed-auto') {
    // The committed file alone asks for the model: say so only when it would have reached somewhere.
    const note =
      refusal ??
      (user.apiKey
        ? `${file} sets llm.mode auto, but a committed file cannot turn the model on; turn it on yourself with: git config handoff.llm auto`
        : undefined);
    return { use: false, endpoint, ...(note ? { note } : {}) };
  }
  if (refusal) return { use: false, endpoint, note: refusal };
  const use = flag === true || endpoint.configured;
  return { use, endpoint, ...(use && withheld ? { note: withheld } : {}) };
}

/** Two spellings of one endpoint: case of scheme and host, and a trailing slash, do not matter. */
function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const norm = (u: string) => {
    try {
      const url = new URL(u.trim());
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return u.trim().replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** The user's own settings from the environment and from git config lines `key\nvalue\0` (git config -z --get-regexp). */
export function userLlm(env: Record<string, string | undefined>, gitConfig: string): UserLlm {
  const git = new Map<string, string>();
  for (const record of gitConfig.split('\0')) {
    const nl = record.indexOf('\n');
    if (nl > 0) git.set(record.slice(0, nl).toLowerCase(), record.slice(nl + 1).trim());
  }
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v.trim() !== '')?.trim();
  const modeText = pick(env.HANDOFF_LLM, git.get('handoff.llm'));
  const mode =
    modeText === 'auto' || modeText === 'on' || modeText === 'true'
      ? 'auto'
      : modeText === 'off' || modeText === 'false'
        ? 'off'
        : undefined;
  const envURL = pick(env.OPENAI_BASE_URL);
  const baseURL = envURL ?? pick(git.get('handoff.baseurl'));
  const keyFor = pick(git.get('handoff.sendkey'));
  const model = pick(env.HANDOFF_MODEL, git.get('handoff.model'));
  const apiKey = pick(env.OPENAI_API_KEY);
  return {
    ...(mode ? { mode } : {}),
    ...(baseURL ? { baseURL, baseURLFrom: envURL ? ('env' as const) : ('git' as const) } : {}),
    ...(keyFor ? { keyFor } : {}),
    ...(model ? { model } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}
