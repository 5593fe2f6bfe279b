// Splitting a file into its front-matter and its body, without the YAML library: readers
// that only need a body (a closed handoff's, read when asked) do not load it.
import { CONFLICT_MARKERS, FileFormatError } from '../core/errors.js';

const MAX_FRONT_MATTER_BYTES = 1_000_000;

export interface Split {
  yaml: string;
  body: string;
}

/** Splits `---\n<yaml>\n---\n<body>`. The body is returned byte for byte. */
export function splitFrontMatter(text: string, file: string): Split {
  // A file git could not merge is a merge conflict, not a format error: say which and how.
  if (text.includes('<<<<<<<') && /^<{7}( |$)/m.test(text) && /^>{7}( |$)/m.test(text)) {
    throw new FileFormatError(
      file,
      `${CONFLICT_MARKERS}: resolve the merge conflict by keeping both sides' facts and removing the marker lines, then git add it`,
    );
  }
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) {
    const first = text.split('\n', 1)[0] ?? '';
    const hint = /^---\S/.test(first)
      ? `front-matter must open with a plain '---' line, found '${first.slice(0, 40)}' (language front-matter is never run)`
      : `expected the file to start with a '---' front-matter line, found '${first.slice(0, 40)}'`;
    throw new FileFormatError(file, hint);
  }
  const rest = text.slice(open[0].length);
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!close) throw new FileFormatError(file, "front-matter is not closed: expected a '---' line after it");
  const yaml = rest.slice(0, close.index);
  if (yaml.length > MAX_FRONT_MATTER_BYTES) {
    throw new FileFormatError(file, `front-matter is ${yaml.length} bytes; at most ${MAX_FRONT_MATTER_BYTES} are read`);
  }
  return { yaml, body: rest.slice(close.index + close[0].length) };
}
