// The CLI reads stdin and writes stdout on the descriptors themselves (cli.ts): a reader
// that leaves early, a non-blocking stdout that fills up, and a non-blocking stdin whose
// data comes late must each lose nothing and fail nothing. A non-blocking descriptor is
// a named pipe opened O_NONBLOCK, handed over as descriptor 3 and made stdin or stdout
// by a shell: node's spawn would make a child's descriptors 0 to 2 blocking.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, runHandoff, tempDir } from '../helpers.js';

/** A repository whose resume prompt is over 150 KB: more than a pipe holds. */
function bigPrompt() {
  const repo = makeRepo();
  repo.handoff(['init']);
  repo.write('pin.txt', 'x'.repeat(150_000));
  expect(repo.handoff(['pin', '--file', 'pin.txt']).code).toBe(0);
  repo.handoff(['new', 'a goal', '--no-edit']);
  const prompt = repo.handoff(['resume']).stdout;
  expect(prompt.length).toBeGreaterThan(150_000);
  return { repo, prompt };
}

/** Both ends of a named pipe, non-blocking. */
function fifo(): { read: number; write: number } {
  const file = path.join(tempDir(), 'fifo');
  execFileSync('mkfifo', [file]);
  const read = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  return { read, write: openSync(file, constants.O_WRONLY | constants.O_NONBLOCK) };
}

/** The CLI with `redirect` (e.g. `1>&3`) applied by a shell, descriptor 3 being `fd`. */
function withFd3(cwd: string, args: string[], redirect: string, fd: number) {
  const command = `exec "$0" "$@" ${redirect} 3>&-`;
  return spawn('sh', ['-c', command, process.execPath, BIN, ...args], {
    cwd,
    env: gitEnv(),
    stdio: ['ignore', 'ignore', 'pipe', fd],
  });
}

const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform === 'win32')('stdin and stdout', () => {
  it('a reader that leaves early is not an error', async () => {
    const { repo } = bigPrompt();
    const child = spawn(process.execPath, [BIN, 'resume'], {
      cwd: repo.dir,
      env: gitEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.destroy();
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exited(child)).toBe(0);
    expect(stderr).toBe('');
  });

  it('a non-blocking stdout that fills up gets every byte, in order', async () => {
    const { repo, prompt } = bigPrompt();
    const pipe = fifo();
    const child = withFd3(repo.dir, ['resume'], '1>&3', pipe.write);
    closeSync(pipe.write);
    const done = exited(child);
    await sleep(300); // nobody reads: the pipe fills and the write is refused for now
    const chunks: Buffer[] = [];
    let finished = false;
    void done.then(() => (finished = true));
    for (;;) {
      const chunk = Buffer.alloc(65_536);
      let n = -1;
      try {
        n = readSync(pipe.read, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (n === 0 && finished) break;
      if (n > 0) chunks.push(chunk.subarray(0, n));
      else await sleep(5);
    }
    closeSync(pipe.read);
    expect(await done).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(prompt);
  });

  it('a non-blocking stdin whose data comes late is read whole', async () => {
    const repo = makeRepo();
    const pipe = fifo();
    const child = withFd3(repo.dir, ['pin', '-'], '0<&3', pipe.read);
    closeSync(pipe.read);
    const done = exited(child);
    await sleep(300);
    writeSync(pipe.write, 'keep the public ');
    await sleep(100);
    writeSync(pipe.write, 'API stable');
    closeSync(pipe.write);
    expect(await done).toBe(0);
    expect(runHandoff(repo.dir, ['pins']).stdout).toContain('keep the public API stable');
  });
});
