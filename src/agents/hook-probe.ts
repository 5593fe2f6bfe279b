// Runs the hook command once, as an agent runs it (`sh -c`, from the repository root, with
// this environment), with the `probe` hook: it answers which CLI it reached and changes
// nothing. `agent install` and `agent status` say plainly when the command would fail.
import { execFile } from 'node:child_process';
import { hookCommand } from './hook-command.js';

export interface Probe {
  ok: boolean;
  /** The bin script and version the command reached, when it did. */
  bin?: string;
  version?: string;
  /** The first line of what it printed on stderr, when it failed. */
  problem?: string;
}

export const PROBE_HOOK = 'probe';

export function probe(root: string, env: NodeJS.ProcessEnv): Promise<Probe> {
  return new Promise((resolve) => {
    const child = execFile(
      'sh',
      ['-c', hookCommand(PROBE_HOOK)],
      { cwd: root, env, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        let answer: { probe?: string; bin?: string; version?: string } = {};
        try {
          answer = line ? JSON.parse(line) : {};
        } catch {
          answer = {};
        }
        if (!error && answer.probe === 'ok')
          return resolve({
            ok: true,
            ...(answer.bin ? { bin: answer.bin } : {}),
            ...(answer.version ? { version: answer.version } : {}),
          });
        const said = stderr.split('\n').find((l) => l.trim() !== '');
        resolve({ ok: false, problem: said ?? (error ? error.message.split('\n')[0] : 'no answer') });
      },
    );
    child.stdin?.end();
  });
}
