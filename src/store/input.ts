// Text the user hands us as a file or on stdin: kept byte for byte, and refused (not
// mangled) when it is not UTF-8.
import { HandoffError } from '../core/errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new HandoffError(`${source} is not UTF-8 text; expected a UTF-8 text file`);
  }
}

export async function readUserFile(file: string, shownAs: string): Promise<string> {
  let bytes: Buffer;
  try {
    // Taken, not imported: see fs.ts (`new` and `pin` load this module whether or not they read a file).
    bytes = await process.getBuiltinModule('node:fs').promises.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HandoffError(
      `${shownAs}: cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code})`,
    );
  }
  return decodeUtf8(bytes, shownAs);
}

/** Text a pin or goal may hold: anything a text file can, which excludes NUL. */
export function checkText(text: string, what: string): string {
  if (text.includes('\0'))
    throw new HandoffError(`${what} contains a NUL byte; expected text (git would treat the file as binary)`);
  if (text.trim() === '') throw new HandoffError(`${what} is empty; expected some text`);
  return text;
}
