// The last resume prompt of each handoff, remembered in the one cache under everything it
// was made from: the handoff's file and text, the pins, what git says happened since, whose
// handoff it is and the token budget (the template and the code are the tool build's,
// which the cache is kept under). A session start in a repository where none of these
// moved (git's questions are still asked: their answers are part of the key) gives back
// the prompt and its parts as they were, without rendering, counting tokens or walking
// them for redaction again. Remembered only when nothing was redacted (the key holds the
// files' text) and the prompt is small enough to read back at every session start.
import type { Context } from '../command/context.js';
import type { Handoff } from '../store/handoff.js';
import type { Pin } from '../store/pin.js';
import type { Problem } from '../store/tree.js';
import { openCache } from '../store/cache.js';
import type { ResumeParts } from './prompt.js';
import type { SinceFacts } from './since.js';

/** Prompts longer than this are built each time: a session-start hook passes none of them whole. */
const KEPT_CHARS = 64 * 1024;

interface Kept {
  made: string;
  prompt: string;
  parts: ResumeParts;
}

export interface Made {
  handoff: Handoff;
  pins: readonly Pin[];
  pinProblems: readonly Problem[];
  since: SinceFacts;
  from: string | null;
}

const keyOf = (handoff: Handoff) => `resume\0${handoff.file}`;

/** What a prompt is made from, as one string compared whole. */
export function madeFrom(ctx: Pick<Context, 'config'>, m: Made): string {
  return JSON.stringify([
    m.handoff.file,
    m.handoff.meta,
    m.handoff.bodyText,
    m.pins.map((p) => [p.file, p.meta, p.text]),
    m.pinProblems,
    m.since,
    m.from,
    ctx.config.resume_tokens ?? null,
  ]);
}

/** The prompt and parts remembered for exactly `made`, if any. */
export async function recalled(
  ctx: Pick<Context, 'cacheFile'>,
  handoff: Handoff,
  made: string,
): Promise<{ prompt: string; parts: ResumeParts } | undefined> {
  const kept = (await openCache(ctx.cacheFile)).answers.get(keyOf(handoff)) as Kept | undefined;
  if (kept?.made !== made || typeof kept.prompt !== 'string') return undefined;
  return { prompt: kept.prompt, parts: kept.parts };
}

/** Remembers a prompt that was redacted of nothing. */
export async function remember(
  ctx: Pick<Context, 'cacheFile'>,
  handoff: Handoff,
  made: string,
  prompt: string,
  parts: ResumeParts,
): Promise<void> {
  if (prompt.length > KEPT_CHARS) return;
  const opened = await openCache(ctx.cacheFile);
  opened.answers.set(keyOf(handoff), { made, prompt, parts } satisfies Kept);
  await opened.save();
}
