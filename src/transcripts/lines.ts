// Transcripts are streamed line by line so memory stays flat however long the session.
// Invalid UTF-8 decodes to U+FFFD (the stream's decoder), never an exception. Lines end at
// \r\n, \n or a lone \r, as readline splits them; split here rather than by readline
// so that a line past the limit is a clear error, not readline's RangeError from a
// string longer than node can make, thrown where nothing can catch it.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { FileFormatError } from '../core/errors.js';

/** The longest transcript line read: far above any agent's record (images included), far below node's string limit. */
export const LINE_MAX_CHARS = 64 * 1024 * 1024;

export async function* readLines(file: string, max = LINE_MAX_CHARS): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let pending: string[] = [];
  let pendingLength = 0;
  let line = 1;
  // A \r at the end of a chunk may be the first half of \r\n.
  let carriage = false;
  const tooLong = () =>
    new FileFormatError(
      file,
      `line ${line} is longer than ${max / 1024 / 1024} MiB; expected a transcript of shorter records`,
    );
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      let at = 0;
      if (carriage && chunk.startsWith('\n')) at = 1;
      carriage = false;
      const breaks = /\r\n|\n|\r/g;
      breaks.lastIndex = at;
      for (let m = breaks.exec(chunk); m !== null; m = breaks.exec(chunk)) {
        if (m[0] === '\r' && m.index === chunk.length - 1) carriage = true;
        if (pendingLength + (m.index - at) > max) throw tooLong();
        pending.push(chunk.slice(at, m.index));
        yield pending.join('');
        pending = [];
        pendingLength = 0;
        line++;
        at = m.index + m[0].length;
      }
      if (at < chunk.length) {
        pendingLength += chunk.length - at;
        if (pendingLength > max) throw tooLong();
        pending.push(chunk.slice(at));
      }
    }
    if (pendingLength > 0) yield pending.join('');
  } finally {
    // A reader that stops early (a peek at the header) must not leave the file open.
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
