// What is sent to the model, and what is left out. Pure: the token counter is passed in.
// Priority: the goal, pins, git facts, the deterministic draft and the extracted items
// always go; then recent user messages verbatim (newest first until the budget is spent);
// then session events, the oldest shortened, newest first. Everything is redacted first.
import type { ModelInput } from './model-input.js';
import { redactSecrets } from '../security/redact.js';
import { fill } from '../store/template.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Prompt {
  messages: ChatMessage[];
  /** Tokens in the messages as sent. */
  tokens: number;
  /** Tokens of material that did not fit. */
  omittedTokens: number;
  omittedUserMessages: number;
  omittedEvents: number;
  redactions: number;
}

export type Counter = (text: string) => number;

/** Events older than the newest this many are cut to SHORT_EVENT characters. */
const KEEP_EVENTS_WHOLE = 20;
const SHORT_EVENT = 400;
/** The part of the room user messages always get when events compete for it. */
const USER_SHARE = 0.6;

/** A fence that the text inside cannot close, so data cannot pose as our own prompt. */
function dataFence(text: string, name: string): string {
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}DATA ${name}\n${text}\n${fence}`;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} [... ${text.length - max} characters cut]`;
}

/** Takes items newest first while they fit; returns them oldest first. */
function newestThatFit(
  items: string[],
  sizes: number[],
  budget: number,
): { kept: string[]; used: number; omittedTokens: number } {
  const kept: string[] = [];
  let used = 0;
  let omittedTokens = 0;
  let full = false;
  for (let i = items.length - 1; i >= 0; i--) {
    const t = sizes[i]!;
    if (!full && used + t <= budget) {
      kept.unshift(items[i]!);
      used += t;
    } else {
      full = true;
      omittedTokens += t;
    }
  }
  return { kept, used, omittedTokens };
}

export function buildPrompt(
  input: ModelInput,
  templates: { system: string; request: string },
  budget: number,
  count: Counter,
): Prompt {
  let redactions = 0;
  const clean = (text: string) => {
    const r = redactSecrets(text);
    redactions += r.redactions.length;
    return r.text;
  };
  const t = input.transcript;
  const files = input.files.map((f) => `- ${f.path}${f.from ? ` (from ${f.from})` : ''}: ${f.change}, ${f.state}`);
  const commits = input.commits.map((c) => `- ${c.hash.slice(0, 7)} ${c.subject}`);
  const git = [
    ...(files.length ? ['Files:', ...files] : ['Files: none']),
    ...(commits.length ? ['Commits:', ...commits] : ['Commits: none']),
  ].join('\n');
  const extracted = t
    ? [
        ...t.extracted.files.map((f) => `- file: ${f}`),
        ...t.extracted.commands.map((c) => `- command ${c.passed ? 'passed' : 'failed'}: ${c.command}`),
        ...t.extracted.notes.map((n) => `- ${n}`),
      ].join('\n')
    : '';
  const fixed = {
    goal: dataFence(clean(input.goal), 'goal'),
    pins: input.pins.length
      ? dataFence(input.pins.map((p) => `[${p.id}]\n${clean(p.text)}`).join('\n\n'), 'pins')
      : '(none)',
    git: dataFence(clean(git), 'git'),
    draft: dataFence(clean(input.draft), 'draft'),
    extracted: extracted ? dataFence(clean(extracted), 'extracted') : '(no transcript)',
  };
  const system = fill(templates.system, {});
  const skeleton = fill(templates.request, {
    ...fixed,
    events: '(none)',
    user_turns: '(none)',
    omitted: 'Left out for length: nothing.',
  });
  let room = budget - count(system) - count(skeleton) - 16;

  const users = (t?.userMessages ?? []).map(clean);
  const events = (t?.events ?? []).map((e, i, all) =>
    clean(i < all.length - KEEP_EVENTS_WHOLE ? shorten(e, SHORT_EVENT) : e),
  );
  // Recent user turns verbatim first: they carry the constraints and intent. They may not
  // starve the events (users paste logs), unless the events need less than their share.
  // +2: the separator between items.
  const eventSizes = events.map((e) => count(e) + 2);
  const eventsNeed = eventSizes.reduce((n, t) => n + t, 0);
  const u = newestThatFit(
    users,
    users.map((m) => count(m) + 2),
    Math.max(0, Math.max(room * USER_SHARE, room - eventsNeed)),
  );
  room -= u.used;
  const e = newestThatFit(events, eventSizes, Math.max(0, room));
  const omittedUserMessages = users.length - u.kept.length;
  const omittedEvents = events.length - e.kept.length;
  const omitted =
    omittedUserMessages + omittedEvents > 0
      ? `Left out for length: the ${omittedUserMessages} oldest user messages and ${omittedEvents} oldest events.`
      : 'Left out for length: nothing.';
  const request = fill(templates.request, {
    ...fixed,
    events: e.kept.length ? dataFence(e.kept.join('\n---\n'), 'events') : '(none)',
    user_turns: u.kept.length ? dataFence(u.kept.join('\n---\n'), 'user-messages') : '(none)',
    omitted,
  });
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: request },
  ];
  return {
    messages,
    tokens: messages.reduce((n, m) => n + count(m.content) + 4, 0),
    omittedTokens: u.omittedTokens + e.omittedTokens,
    omittedUserMessages,
    omittedEvents,
    redactions,
  };
}
