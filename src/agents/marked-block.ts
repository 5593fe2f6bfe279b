// Our block in an instruction file (AGENTS.md, CLAUDE.md, GEMINI.md), between markers.
// Idempotent: installing twice changes nothing; updating rewrites only what is between
// the markers; removing takes the block and the blank line we put before it, nothing
// else. Text outside the markers is never edited.
import { FileFormatError } from '../core/errors.js';

export const BLOCK_START = '<!-- git-handoff:start -->';
export const BLOCK_END = '<!-- git-handoff:end -->';

/** Codex CLI reads at most this many bytes of project docs (project_doc_max_bytes). */
export const CODEX_DOC_LIMIT = 32 * 1024;

export interface BlockResult {
  text: string;
  action: 'added' | 'updated' | 'unchanged';
  /** Set when the block was put first so an agent that reads only a prefix still sees it. */
  note?: string;
}

interface Found {
  start: number;
  end: number;
}

function find(text: string, file: string): Found | null {
  const start = text.indexOf(BLOCK_START);
  const end = text.indexOf(BLOCK_END);
  if (start === -1 && end === -1) return null;
  if (start === -1 || end === -1 || end < start || text.indexOf(BLOCK_START, start + 1) !== -1) {
    throw new FileFormatError(
      file,
      `expected one ${BLOCK_START} line followed by one ${BLOCK_END} line; fix or remove the markers by hand`,
    );
  }
  return { start, end: end + BLOCK_END.length };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export function upsertBlock(text: string | undefined, content: string, file: string, limitBytes?: number): BlockResult {
  const old = text ?? '';
  // Written in the file's own line endings, so a CRLF file stays CRLF throughout.
  const eol = old.includes('\r\n') ? '\r\n' : '\n';
  const block = `${BLOCK_START}\n${content.replace(/\n+$/, '')}\n${BLOCK_END}`.replace(/\r?\n/g, eol);
  const found = find(old, file);
  let out: string;
  let blockEnd: number;
  if (found) {
    out = old.slice(0, found.start) + block + old.slice(found.end);
    blockEnd = found.start + block.length;
  } else {
    // One blank line before the block; the user's own trailing newlines are left as they are.
    const before = old === '' ? '' : old.endsWith('\n') ? `${old}${eol}` : `${old}${eol}${eol}`;
    out = `${before}${block}${eol}`;
    blockEnd = out.length - eol.length;
  }
  if (limitBytes !== undefined && bytes(out.slice(0, blockEnd)) > limitBytes) {
    // An agent that reads only the first limitBytes would miss the block: put it first.
    const rest = found ? (removeBlock(old, file) ?? old) : old;
    out = `${block}${eol}${eol}${rest}`;
    return {
      text: out,
      action: found ? 'updated' : 'added',
      note: `${file} is ${bytes(out).toLocaleString('en-US')} bytes, more than the ${limitBytes.toLocaleString('en-US')} an agent reads; the block is placed first so it is read`,
    };
  }
  return { text: out, action: out === old ? 'unchanged' : found ? 'updated' : 'added' };
}

/** The text without our block (and the blank line before it); null when there was none. */
export function removeBlock(text: string, file: string): string | null {
  const found = find(text, file);
  if (!found) return null;
  let start = found.start;
  let end = found.end;
  const newline = (at: number) => (text.startsWith('\r\n', at) ? 2 : text[at] === '\n' ? 1 : 0);
  end += newline(end);
  if (start === 0) {
    // Placed first: we also added the blank line after it.
    end += newline(end);
  } else {
    // Appended: we added the blank line before it.
    const before = text.slice(0, start);
    const m = /(\r?\n)(\r?\n)$/.exec(before);
    if (m) start -= m[2]!.length;
  }
  return text.slice(0, start) + text.slice(end);
}

export function hasBlock(text: string | undefined, file: string): boolean {
  return text !== undefined && find(text, file) !== null;
}
