// "Suggested once per session": a marker file per agent session in the OS temp
// directory. It is not the repository's business and may vanish at reboot, which at
// worst repeats one suggestion.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const dir = () => path.join(os.tmpdir(), 'git-handoff-meter');

/** True the first time it is called for a session, false after that. */
export async function firstSuggestion(sessionId: string): Promise<boolean> {
  await mkdir(dir(), { recursive: true });
  const safe = sessionId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || 'unknown';
  try {
    await writeFile(path.join(dir(), safe), '', { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
