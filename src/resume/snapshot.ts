// The last resume prompt of each handoff, remembered under everything it was made from:
// the handoff's file and text, the pins, what git says happened since, whose handoff it
// is and the token budget (the template and the code are the tool build's, which the file
// is kept under). A session start in a repository where none of these moved (git's
// questions are still asked: their answers are part of the key) gives back the prompt and
// its parts as they were, without rendering, counting tokens or walking them for
// redaction again. Kept in its own file beside the cache, `<git dir>/handoff-resume.json`,
// which only session starts and the pre-commit hook (build.ts, readyResume) read.
// Remembered only when nothing was redacted (the key holds the files' text), and only a
// prompt a session-start hook could pass whole or nearly: one that lists the hundred
// thousand paths of a large commit costs as much to read back and compare as to render.
import type { Context } from '../command/context.js';
import type { Handoff } from '../store/handoff.js';
import type { Pin } from '../store/pin.js';
import type { Problem } from '../store/tree.js';
import path from 'node:path';
import { toolVersion } from '../store/cache.js';
import { readTextNow, writeDisposable } from '../store/fs.js';
import type { ResumeParts } from './prompt.js';
import type { SinceFacts } from './since.js';

/** Its name in the git directory, beside the cache. */
export const RESUME_FILE = 'handoff-resume.json';
/** Prompts longer than this are rendered each time. */
const KEPT_CHARS = 64 * 1024;
/** Prompts kept besides the last one, the newest first, while they are this small in all. */
const OTHERS_CHARS = 256 * 1024;

interface Kept {
  file: string;
  made: string;
  prompt: string;
  /** As stored: storedParts. */
  parts: unknown;
}

export interface Made {
  handoff: Handoff;
  pins: readonly Pin[];
  pinProblems: readonly Problem[];
  since: SinceFacts;
  from: string | null;
}

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

/**
 * Whether a prompt made with these facts can be kept: it lists every path changed since,
 * so their length alone can rule it out before its key (all of them again) is made.
 */
export function mayBeKept(since: SinceFacts): boolean {
  let chars = 0;
  for (const p of since.changedFiles) if ((chars += p.length) > KEPT_CHARS) return false;
  return true;
}

const fileOf = (ctx: Pick<Context, 'cacheFile'>) =>
  ctx.cacheFile && path.join(path.dirname(ctx.cacheFile), RESUME_FILE);

/**
 * The file's format: 2, the parts' pins, files and what git said happened since stored as
 * where `made` holds them (storedParts).
 */
const FORMAT = 2;

/** The prompts remembered by this tool build, the newest first; none when the file is missing or unreadable. */
function read(file: string | null): Kept[] {
  if (!file) return [];
  try {
    const data = JSON.parse(readTextNow(file) ?? '{}') as { format?: unknown; version?: unknown; kept?: unknown };
    if (data.format === FORMAT && data.version === toolVersion() && Array.isArray(data.kept))
      return (data.kept as Kept[]).filter((k) => typeof k?.made === 'string' && typeof k.prompt === 'string');
  } catch {
    // unreadable: nothing remembered
  }
  return [];
}

/** What madeFrom's array holds: the handoff's file, its front-matter, ..., the pins as [file, meta, text], ..., git's answers. */
type MadeArray = [
  string,
  { files?: unknown },
  string,
  Array<[string, { id?: unknown; scope?: unknown }, string]>,
  unknown,
  unknown,
  unknown?,
];

/** A pin of the prompt from the `i`th pin `made` holds (prompt.ts promptPins). */
function pinOf(made: MadeArray, i: number): unknown {
  const [file, meta, text] = made[3][i] ?? [];
  return { id: meta?.id, file, text, ...(meta?.scope ? { scope: meta.scope } : {}) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The parts as stored: what `made` already holds (the pins in play, each as its index among
 * made's pins; the listed files; what git said happened since) as 0 or indexes, in place, so
 * that the keys keep their order; each only where it reads back the same. They were most of
 * the parts, and the parts as much as the prompt.
 */
function storedParts(parts: ResumeParts, made: string): unknown {
  const m = JSON.parse(made) as MadeArray;
  const out: Record<string, unknown> = { ...parts };
  if (same(parts.files, m[1]?.files)) out.files = 0;
  if (same(parts.since, m[5])) out.since = 0;
  out.pins = parts.pins.map((p) => {
    const i = m[3].findIndex(([file]) => file === p.file);
    return i >= 0 && same(pinOf(m, i), p) ? i : p;
  });
  return out;
}

/** What storedParts stored, whole again. */
function wholeParts(stored: unknown, made: string): ResumeParts {
  const m = JSON.parse(made) as MadeArray;
  const parts = { ...(stored as Record<string, unknown>) };
  if (parts.files === 0) parts.files = m[1]?.files;
  if (parts.since === 0) parts.since = m[5];
  if (Array.isArray(parts.pins)) parts.pins = parts.pins.map((p) => (typeof p === 'number' ? pinOf(m, p) : p));
  return parts as unknown as ResumeParts;
}

/** The prompt and parts remembered for exactly `made`, if any. */
export function recalled(
  ctx: Pick<Context, 'cacheFile'>,
  made: string,
): { prompt: string; parts: ResumeParts } | undefined {
  const kept = read(fileOf(ctx)).find((k) => k.made === made);
  return kept && { prompt: kept.prompt, parts: wholeParts(kept.parts, kept.made) };
}

/**
 * What git said, and who wrote it, when the prompt remembered last for the handoff in
 * `file` was made, if one is: as it was said, not as the parts carry it (resume/since.ts bounded).
 */
export function lastFacts(
  ctx: Pick<Context, 'cacheFile'>,
  file: string,
): { since: SinceFacts; from: string | null } | undefined {
  const kept = read(fileOf(ctx)).find((k) => k.file === file);
  if (!kept) return undefined;
  const m = JSON.parse(kept.made) as MadeArray;
  return { since: m[5] as SinceFacts, from: (m[6] as string | null) ?? null };
}

/** Remembers a prompt that was redacted of nothing, first; any failure to write is ignored. */
export async function remember(
  ctx: Pick<Context, 'cacheFile'>,
  handoff: Handoff,
  made: string,
  prompt: string,
  parts: ResumeParts,
): Promise<void> {
  const file = fileOf(ctx);
  if (!file || prompt.length > KEPT_CHARS) return;
  const kept: Kept[] = [{ file: handoff.file, made, prompt, parts: storedParts(parts, made) }];
  let chars = 0;
  for (const k of read(file)) {
    if (k.file === handoff.file) continue;
    chars += k.made.length + 3 * k.prompt.length; // the parts hold about twice the prompt
    if (chars > OTHERS_CHARS) break;
    kept.push(k);
  }
  await writeDisposable(file, JSON.stringify({ format: FORMAT, version: toolVersion(), kept }));
}
