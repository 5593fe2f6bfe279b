// Transcripts are streamed line by line so memory stays flat however long the session.
// Invalid UTF-8 decodes to U+FFFD (readline's decoder), never an exception.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';

export async function* readLines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const rl = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) yield line;
  } finally {
    // A reader that stops early (a peek at the header) must not leave the file open.
    rl.close();
    input.destroy();
  }
}

/** The first bytes of a file, for format detection. */
export async function readHead(file: string, bytes = 65536): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function fileInfo(file: string): Promise<{ size: number; mtime: Date; isDirectory: boolean } | undefined> {
  try {
    const s = await stat(file);
    return { size: s.size, mtime: s.mtime, isDirectory: s.isDirectory() };
  } catch {
    return undefined;
  }
}
