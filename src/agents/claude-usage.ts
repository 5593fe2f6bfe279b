// The minimal token-usage read behind the opt-in meter hook: how full Claude Code's
// context was at its last reply, from the `usage` of the newest assistant entry in the
// session's JSONL transcript. Only the file's tail is read (transcripts grow to many
// MB and this runs after every turn). Full transcript reading belongs to the transcript
// readers, not here.
import { open } from 'node:fs/promises';

const TAIL_BYTES = 256 * 1024;

export interface Usage {
  /** Tokens in the context at the last reply: input + cache reads + cache writes, as `handoff meter` counts them. */
  tokens: number;
  model?: string;
}

/** The usage of the last assistant entry in JSONL text; undefined when there is none. */
export function lastUsage(jsonl: string): Usage | undefined {
  const lines = jsonl.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('"usage"')) continue;
    let entry: { type?: string; isSidechain?: boolean; message?: { model?: string; usage?: Record<string, unknown> } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // the first line of a tail is usually cut; a torn last line is possible too
    }
    const usage = entry.message?.usage;
    if (entry.type !== 'assistant' || entry.isSidechain || !usage) continue;
    const n = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
    const tokens = n('input_tokens') + n('cache_read_input_tokens') + n('cache_creation_input_tokens');
    return { tokens, ...(entry.message?.model ? { model: entry.message.model } : {}) };
  }
  return undefined;
}

export async function readTranscriptTail(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
