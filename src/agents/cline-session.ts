// Where Cline keeps a session: `<data dir>/sessions/<root session id>/<id>.json` (its
// metadata), `<id>.messages.json` (the conversation) and, once it has compacted,
// `<id>.compaction.json`. The data dir is $CLINE_DATA_DIR, else $CLINE_DIR/data, else
// ~/.cline/data.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { clineDataDir } from '../transcripts/cline.js';

/** The session's newest compaction file and the messages it belongs to, if it compacted. */
export async function clineCompaction(
  env: NodeJS.ProcessEnv,
  rootSessionId: string,
): Promise<{ compaction: string; messages: string } | undefined> {
  // The id comes from the agent's stdin: it names one folder, never a path.
  if (!/^[\w.-]+$/.test(rootSessionId) || rootSessionId.startsWith('.')) return undefined;
  const dir = path.join(clineDataDir(env), 'sessions', rootSessionId);
  const names = await readdir(dir).catch(() => [] as string[]);
  const dated = await Promise.all(
    names
      .filter((n) => n.endsWith('.compaction.json'))
      .map(async (n) => ({ n, at: (await stat(path.join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  const newest = dated.sort((a, b) => b.at - a.at)[0]?.n;
  if (!newest) return undefined;
  const own = newest.replace(/\.compaction\.json$/, '.messages.json');
  const messages = names.includes(own) ? own : names.find((n) => n.endsWith('.messages.json'));
  if (!messages) return undefined;
  return { compaction: path.join(dir, newest), messages: path.join(dir, messages) };
}

/**
 * The summary in a compaction file (@cline/core 3.0: `{version: 1, messages[], ...}`, the
 * compacted conversation): the user message Cline marks `metadata.kind: "compaction_summary"`,
 * its summary in `metadata.summary` (the text says "Context summary:" before it). The newest
 * one, if any; a file that is not this shape has none.
 */
export async function clineSummary(compactionFile: string): Promise<string | undefined> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(compactionFile, 'utf8'));
  } catch {
    return undefined;
  }
  const messages = (doc as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (const m of [...messages].reverse()) {
    const meta = m?.metadata;
    if (meta?.kind !== 'compaction_summary') continue;
    if (typeof meta.summary === 'string' && meta.summary.trim()) return meta.summary;
    const text = Array.isArray(m.content)
      ? m.content.find((b: { type?: string }) => b?.type === 'text')?.text
      : m.content;
    if (typeof text === 'string' && text.trim()) return text.replace(/^Context summary:\s*/, '');
  }
  return undefined;
}
