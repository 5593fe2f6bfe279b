// Facts the compaction hooks act on: whether Gemini CLI will really compress (its
// PreCompress hook fires before every model call), and "one handoff per compaction"
// (Claude Code's PreCompact can fire several times for one compaction): a marker file
// per session and transcript size in the OS temp directory, holding the handoff written.
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Gemini 2.x models' window, and Gemini CLI's default `model.compressionThreshold`. */
export const GEMINI_WINDOW = 1_048_576;
const GEMINI_THRESHOLD = 0.5;

async function jsonFile(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8'));
    return typeof v === 'object' && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `model.compressionThreshold` from the project's, then the user's Gemini settings. */
export async function geminiThreshold(root: string, home: string): Promise<number> {
  for (const file of [path.join(root, '.gemini/settings.json'), path.join(home, '.gemini/settings.json')]) {
    const model = (await jsonFile(file))?.model as Record<string, unknown> | undefined;
    const t = model?.compressionThreshold;
    if (typeof t === 'number' && t > 0 && t <= 1) return t;
  }
  return GEMINI_THRESHOLD;
}

/** The prompt tokens of the session's newest reply, from the transcript (undefined: unreadable). */
export async function lastPromptTokens(transcript: string): Promise<number | undefined> {
  const { openTranscript } = await import('../transcripts/open.js');
  let tokens: number | undefined;
  try {
    const opened = await openTranscript(transcript, transcript);
    for await (const e of opened.events()) {
      if (e.kind === 'usage') tokens = e.contextTokens;
      else if (e.kind === 'compaction') tokens = undefined;
    }
  } catch {
    return undefined;
  }
  return tokens;
}

const markers = () => path.join(os.tmpdir(), 'git-handoff-compaction');

/** One marker per repository, session and transcript size: a later compaction has a longer transcript. */
async function markerFile(root: string, sessionId: string, transcript: string | undefined): Promise<string> {
  const size = transcript
    ? await stat(transcript).then(
        (s) => s.size,
        () => 0,
      )
    : 0;
  return path.join(
    markers(),
    createHash('sha256')
      .update(`${root}\0${sessionId}\0${transcript ?? ''}\0${size}`)
      .digest('hex')
      .slice(0, 32),
  );
}

/** The handoff already written for this compaction (same session, same transcript), if any. */
export async function writtenForCompaction(
  root: string,
  sessionId: string | undefined,
  transcript: string | undefined,
): Promise<string | undefined> {
  if (!sessionId) return undefined;
  const text = await readFile(await markerFile(root, sessionId, transcript), 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}

export async function rememberCompaction(
  root: string,
  sessionId: string | undefined,
  transcript: string | undefined,
  handoff: string,
): Promise<void> {
  if (!sessionId) return;
  await mkdir(markers(), { recursive: true });
  await writeFile(await markerFile(root, sessionId, transcript), `${handoff}\n`);
}
