// Starting many real CLI processes at once, without blocking the test's event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, gitEnv } from '../helpers.js';

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function start(cwd: string, args: string[], input = ''): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin!.on('error', () => {}); // a killed child closes its stdin early
  child.stdin!.end(input);
  const done = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
