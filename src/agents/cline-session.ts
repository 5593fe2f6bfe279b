// Where Cline keeps a session: `<data dir>/sessions/<root session id>/<id>.json` (its
// metadata), `<id>.messages.json` (the conversation) and, once it has compacted,
// `<id>.compaction.json`. The data dir is $CLINE_DATA_DIR, else $CLINE_DIR/data, else
// ~/.cline/data.
import { readdir, stat } from 'node:fs/promises';
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
