// The CLI reads stdin and writes stdout on the descriptors themselves (cli.ts): a reader
// that leaves early, a non-blocking stdout that fills up, and a non-blocking stdin whose
// data comes late must each lose nothing and fail nothing. A non-blocking descriptor is
// a named pipe opened O_NONBLOCK, handed over as descriptor 3 and made stdin or stdout
// by a shell: node's spawn would make a child's descriptors 0 to 2 blocking.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
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

/** Writes `byte` to a non-blocking write end until the pipe refuses more; returns how many were written. */
function fill(fd: number, byte: string): number {
  const block = Buffer.alloc(4096, byte);
  let written = 0;
  for (;;) {
    try {
      written += writeSync(fd, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      return written;
    }
  }
}

/** Everything written to a non-blocking read end until every writer closes it, read as node reads a pipe. */
function readAll(fd: number): Promise<Buffer> {
  const socket = new Socket({ fd, readable: true, writable: false });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

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
    // The pipe is full before the CLI starts (a filler written until refused), so its
    // first write is refused (EAGAIN) whenever it comes; the filler is read back first.
    const filler = fill(pipe.write, 'f');
    const child = withFd3(repo.dir, ['resume'], '1>&3', pipe.write);
    closeSync(pipe.write);
    const [code, output] = await Promise.all([exited(child), readAll(pipe.read)]);
    expect(code).toBe(0);
    expect(output.toString('utf8')).toBe('f'.repeat(filler) + prompt);
  });

  it('a non-blocking stdin whose data comes late is read whole', async () => {
    const repo = makeRepo();
    const pipe = fifo();
    // The pin's text fills the pipe before the CLI starts; its last words go in only once
    // there is room again, that is once the CLI has read what was there: they come late.
    const head = fill(pipe.write, 'x');
    const child = withFd3(repo.dir, ['pin', '-'], '0<&3', pipe.read);
    closeSync(pipe.read);
    const done = exited(child);
    for (;;) {
      try {
        if (writeSync(pipe.write, ' API stable') === 11) break;
        throw new Error('a partial write of 11 bytes to a pipe');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((resolve) => setTimeout(resolve, 1)); // until the CLI reads
      }
    }
    closeSync(pipe.write);
    expect(await done).toBe(0);
    expect(runHandoff(repo.dir, ['pins', '--json']).stdout).toContain(`${'x'.repeat(head)} API stable`);
  });
});
