// The model's answer: a JSON object with one list per handoff section. Validated by hand
// (a dozen checks; a schema library would cost more to load than the checks cost to write),
// and the same shape is sent as a JSON schema for servers with structured outputs.
import { MODEL_KEYS, type ModelKey } from '../store/sections.js';

export interface AnswerItem {
  text: string;
  /** Why (decisions only; "" elsewhere). */
  why: string;
  /** Repository paths the item is about. */
  files: string[];
  /** The user's words, quoted exactly. */
  quotes: string[];
  /** Commands the model says passed. */
  commands_passed: string[];
}

// The sections the model may write (store/sections.ts), in the handoff file's order.
const ANSWER_SECTIONS = MODEL_KEYS;
export type AnswerSection = ModelKey;

export interface ModelAnswer extends Record<AnswerSection, AnswerItem[]> {
  /** Constraints the user stated that could become pins: the user's words only. */
  pin_candidates: string[];
}

export interface Checked<T> {
  value?: T;
  error?: string;
  /** Top-level keys we do not take (e.g. "pins"): never used, reported. */
  ignored: string[];
}

const ITEM_FIELDS = ['text', 'why', 'files', 'quotes', 'commands_passed'] as const;

const stringArray = { type: 'array', items: { type: 'string' } };
const itemSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...ITEM_FIELDS],
  properties: {
    text: { type: 'string' },
    why: { type: 'string' },
    files: stringArray,
    quotes: stringArray,
    commands_passed: stringArray,
  },
};

/** JSON schema for response_format (strict mode: every key required, nothing extra). */
export const ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [...ANSWER_SECTIONS, 'pin_candidates'],
  properties: {
    ...Object.fromEntries(ANSWER_SECTIONS.map((s) => [s, { type: 'array', items: itemSchema }])),
    pin_candidates: stringArray,
  },
};

/**
 * The JSON object in a reply. Servers without structured outputs wrap it in prose or a
 * ```json fence, so take the outermost braces when the whole text does not parse.
 */
function extractJson(text: string): { value?: unknown; error?: string } {
  const attempts = [text.trim()];
  const fence = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/.exec(text);
  if (fence) attempts.push(fence[1]!);
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) attempts.push(text.slice(start, end + 1));
  let error = 'the reply is empty';
  for (const attempt of attempts) {
    if (attempt === '') continue;
    try {
      return { value: JSON.parse(attempt) };
    } catch (e) {
      error = `the reply is not valid JSON (${(e as Error).message})`;
    }
  }
  return { error };
}

function strings(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new Error(`${where} must be a list of strings`);
  return value as string[];
}

function item(value: unknown, where: string): AnswerItem {
  // A bare string is an item with no references: small local models often answer so.
  if (typeof value === 'string') value = { text: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where} must be an object with a "text" string`);
  const o = value as Record<string, unknown>;
  if (typeof o.text !== 'string' || o.text.trim() === '') throw new Error(`${where}.text must be a non-empty string`);
  if (o.why !== undefined && o.why !== null && typeof o.why !== 'string')
    throw new Error(`${where}.why must be a string`);
  return {
    text: o.text,
    why: typeof o.why === 'string' ? o.why : '',
    files: strings(o.files, `${where}.files`),
    quotes: strings(o.quotes, `${where}.quotes`),
    commands_passed: strings(o.commands_passed, `${where}.commands_passed`),
  };
}

/** Parses and checks a reply; the error names the first problem, for the retry prompt. */
export function parseAnswer(text: string): Checked<ModelAnswer> {
  const json = extractJson(text);
  if (json.error !== undefined) return { error: json.error, ignored: [] };
  const data = json.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { error: 'the reply must be one JSON object', ignored: [] };
  const o = data as Record<string, unknown>;
  const known = new Set<string>([...ANSWER_SECTIONS, 'pin_candidates']);
  const ignored = Object.keys(o).filter((k) => !known.has(k));
  if (![...known].some((k) => k in o))
    return { error: `the reply has none of the keys ${[...known].join(', ')}`, ignored };
  try {
    const answer = { pin_candidates: strings(o.pin_candidates, 'pin_candidates') } as ModelAnswer;
    for (const s of ANSWER_SECTIONS) {
      const list = o[s] ?? [];
      if (!Array.isArray(list)) throw new Error(`${s} must be a list`);
      answer[s] = list.map((v, i) => item(v, `${s}[${i}]`));
    }
    return { value: answer, ignored };
  } catch (e) {
    return { error: (e as Error).message, ignored };
  }
}
