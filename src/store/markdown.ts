// The body of a handoff: level-2 sections, split without losing a byte.
//
// A small line scanner rather than remark: `list` and `resume` run on every agent session
// start and must stay close to a bare node start, and remark is heavy to import.
// It understands exactly what it needs (ATX level-2 headings outside fenced code);
// test/markdown.test.ts checks it against remark on the same inputs.

import { SECTIONS } from './sections.js';

export interface Section {
  /** The heading text, without its hashes (a section title of store/sections.ts, or the user's own). */
  title: string;
  /** The heading line as written, with its line ending. */
  heading: string;
  /** Everything after the heading line up to the next level-2 heading. */
  content: string;
}

export interface Body {
  /** Text before the first level-2 heading. */
  preamble: string;
  sections: Section[];
}

// Only the opening of a heading is a pattern; its title is cut out by hand (headingTitle):
// a lazy title before an optional closing `#` run backtracks over every space of a long line.
const HEADING_START = /^ {0,3}##(?=[ \t]|\r?\n?$)/;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const blank = (c: string | undefined) => c === ' ' || c === '\t';

/** The title of a level-2 ATX heading line (`## Title ##`), or null when the line is not one. */
function headingTitle(line: string): string | null {
  const start = HEADING_START.exec(line);
  if (!start) return null;
  let rest = line.slice(start[0].length).replace(/\r?\n?$/, '');
  // A line break inside the title: not a heading (as `.` in the pattern this replaces).
  if (/[\r\n\u2028\u2029]/.test(rest)) return null;
  let lead = 0;
  while (blank(rest[lead])) lead++;
  rest = rest.slice(lead);
  let end = rest.length;
  while (end > 0 && blank(rest[end - 1])) end--;
  let hashes = end;
  while (hashes > 0 && rest[hashes - 1] === '#') hashes--;
  // A closing run of #s counts only after a space or a tab inside the title.
  if (hashes < end && hashes > 0 && blank(rest[hashes - 1])) end = hashes;
  return rest.slice(0, end).trim();
}

export function parseBody(text: string): Body {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const body: Body = { preamble: '', sections: [] };
  let fence: string | null = null;
  let current: Section | null = null;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (
        fenceMatch &&
        fenceMatch[1]![0] === fence[0] &&
        fenceMatch[1]!.length >= fence.length &&
        line.trim() === fenceMatch[1]
      )
        fence = null;
    } else if (fenceMatch) {
      fence = fenceMatch[1]!;
    } else {
      const title = headingTitle(line);
      if (title !== null) {
        current = { title, heading: line, content: '' };
        body.sections.push(current);
        continue;
      }
    }
    if (current) current.content += line;
    else body.preamble += line;
  }
  return body;
}

export function renderBody(body: Body): string {
  return body.preamble + body.sections.map((s) => s.heading + s.content).join('');
}

export function findSection(body: Body, title: string): Section | undefined {
  const wanted = title.toLowerCase();
  return body.sections.find((s) => s.title.toLowerCase() === wanted);
}

/**
 * What a reader takes of a section: the content of every section of that title, in file
 * order, so a title written twice (a second one added by hand below the draft's own)
 * is read whole; undefined when there is none. Writers change the one findSection gives.
 */
export function sectionContent(body: Body, title: string): string | undefined {
  const wanted = title.toLowerCase();
  const found = body.sections.filter((s) => s.title.toLowerCase() === wanted);
  return found.length === 0 ? undefined : found.map((s) => s.content).join('\n');
}

let known: Set<string> | undefined;

/** The sections with titles of the writer's own (none of store/sections.ts), in file order. */
export function ownSections(body: Body): Section[] {
  // Made at the first call: the bundle may evaluate this module before sections.ts.
  known ??= new Set(SECTIONS.map((s) => s.title.toLowerCase()));
  return body.sections.filter((s) => !known!.has(s.title.toLowerCase()));
}

export interface Item {
  text: string;
  checked: boolean;
}

/** Top-level list items of a section (continuation lines joined), with their checkbox. */
export function listItems(content: string): Item[] {
  const items: Item[] = [];
  for (const line of content.split('\n')) {
    const m = /^(?:[-*+]|\d+[.)])[ \t]+(?:\[([ xX])\][ \t]+)?(.*)$/.exec(line);
    if (m) items.push({ text: m[2]!.trimEnd(), checked: m[1] !== undefined && m[1] !== ' ' });
    else if (/^[ \t]+\S/.test(line) && items.length > 0) items[items.length - 1]!.text += ` ${line.trim()}`;
  }
  return items;
}

/** The section's text without its surrounding blank lines and placeholder comments. */
export function sectionText(content: string): string {
  // By hand, not /<!--[\s\S]*?-->/g: with no closing `-->`, that scans to the end from every `<!--`.
  let out = '';
  let at = 0;
  for (;;) {
    const open = content.indexOf('<!--', at);
    const close = open < 0 ? -1 : content.indexOf('-->', open + 4);
    if (close < 0) break;
    out += content.slice(at, open);
    at = close + 3;
  }
  return (out + content.slice(at)).trim();
}

/**
 * Makes arbitrary text safe to place inside a section: a line that would start a
 * heading or a code fence is escaped, so it cannot split or swallow the sections after it.
 */
export function escapeBlock(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^ {0,3}(#|`{3}|~{3})/.test(line) ? line.replace(/^( {0,3})/, '$1\\') : line))
    .join('\n');
}

/** One line of text for a list item: newlines folded, so an item can never start a block. */
export function inline(text: string): string {
  // Each run of white space that holds a line break becomes one space. Not /\s*\r?\n\s*/g:
  // on a long run with no line break, that backtracks over the run from each of its spaces.
  // Without a line break no run changes (most goals of a year listed): trimmed only.
  if (!text.includes('\n')) return text.trim();
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run)).trim();
}

/** Text in a fenced block that nothing inside it can close (the fence outgrows any run of backticks at a line start). */
export function fenced(text: string, info = 'text'): string {
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((r) => r.trim().length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

/** Inline `code` (a path, a name), with a fence long enough for backticks inside it. */
export function code(text: string): string {
  // Most paths hold neither white space nor a backtick: nothing to flatten or outgrow.
  if (!/[\s`]/.test(text)) return `\`${text}\``;
  const flat = inline(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** One pin as the resume prompt and the roadmap show it: a heading, its scope, its text fenced verbatim. */
export function pinBlock(label: string, text: string, scope?: readonly string[]): string {
  return `### Pin ${label}${scope ? ` (applies to ${scope.map(code).join(', ')})` : ''}\n\n${fenced(text)}`;
}

/** "1 handoff", "2 handoffs". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A whole number with commas between thousands, as `toLocaleString('en-US')` writes it,
 * without the first call's load of the locale data (a command that prints one count pays it).
 */
export const thousands = (n: number): string =>
  Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
