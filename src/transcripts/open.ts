// Opens one transcript: detects its format from its content and streams its events.
import path from 'node:path';
import { HandoffError } from '../core/errors.js';
import { detectFormat, FORMAT_NAMES } from './detect.js';
import { newStats, type Agent, type ReadStats, type TranscriptEvent } from './events.js';
import { fileInfo, readHead, readLines } from './lines.js';

export interface OpenedTranscript {
  file: string;
  agent: Agent;
  size: number;
  mtime: Date;
  stats: ReadStats;
  events: () => AsyncIterable<TranscriptEvent>;
}

/** Chooses among an OpenCode database's sessions: the newest in this repository, else the newest. */
function pick<T extends { directory?: string; updated?: number; created?: number }>(
  sessions: T[],
  root: string | undefined,
): T | undefined {
  const inside = (d: string | undefined) =>
    d !== undefined &&
    root !== undefined &&
    !path.relative(root, d).startsWith('..') &&
    !path.isAbsolute(path.relative(root, d));
  const sorted = [...sessions].sort((a, b) => (b.updated ?? b.created ?? 0) - (a.updated ?? a.created ?? 0));
  return sorted.find((s) => inside(s.directory)) ?? sorted[0];
}

export async function openTranscript(
  file: string,
  shown: string,
  root?: string,
  sessionId?: string,
): Promise<OpenedTranscript> {
  const info = await fileInfo(file);
  if (!info) throw new HandoffError(`${shown}: no such file`);
  if (info.isDirectory)
    throw new HandoffError(`${shown}: is a directory; expected a transcript file (${FORMAT_NAMES})`);
  if (info.size === 0) throw new HandoffError(`${shown}: the transcript is empty; nothing to draft from`);
  const format = detectFormat(await readHead(file));
  if (!format)
    throw new HandoffError(
      `${shown}: not a transcript format this version understands; expected one of: ${FORMAT_NAMES}`,
    );
  const stats = newStats();
  const base = { file, size: info.size, mtime: info.mtime, stats };
  if (format === 'opencode' || format === 'opencode-json') {
    const { openCodeDbSessions, openCodeJsonSession } = await import('./opencode-db.js');
    const { readOpenCode } = await import('./opencode.js');
    const sessions = format === 'opencode' ? await openCodeDbSessions(file) : [await openCodeJsonSession(file)];
    const session = sessionId ? sessions.find((s) => s.id === sessionId) : pick(sessions, root);
    if (!session)
      throw new HandoffError(
        `${shown}: the OpenCode or Kilo database holds no ${sessionId ? `session ${sessionId}` : 'sessions'}`,
      );
    return { ...base, agent: 'opencode', events: () => readOpenCode(session, stats) };
  }
  if (format === 'cline') {
    // The conversation does not say where it ran; the session's metadata beside it does.
    const { readCline, clineCwd } = await import('./cline.js');
    const cwd = await clineCwd(file);
    return { ...base, agent: format, events: () => readCline(readLines(file), stats, cwd) };
  }
  const readers = await import('./readers.js');
  const reader = readers.READERS[format];
  return { ...base, agent: format, events: () => reader(readLines(file), stats) };
}
