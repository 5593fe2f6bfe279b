// The resume prompt: what a fresh agent reads first. Pins verbatim, then the handoff's
// own sections in the order a next session needs them, then what git says has
// happened since. Built from data only; the command gathers the data.
import type { Handoff } from '../store/handoff.js';
import { code, renderFileGroups } from '../handoff/files.js';
import { findSection, sectionText } from '../store/markdown.js';
import type { Pin } from '../store/pin.js';
import { fill } from '../store/template.js';

export interface SinceFacts {
  head: string | null;
  headFound: boolean;
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  commitCount: number;
  /** Tracked files that differ from the handoff's commit and were not uncommitted then. */
  changedFiles: string[];
  /** Files the handoff listed as uncommitted that still differ from its commit. */
  stillUncommitted: string[];
  missingFiles: string[];
}

export interface ResumeParts {
  id: string;
  file: string;
  goal: string;
  pins: Array<{ id: string; text: string; scope?: string[] }>;
  next_steps: string;
  in_progress: string;
  open_questions: string;
  decisions: string;
  current_state: string;
  completed: string;
  references: string;
  files: string;
  since: SinceFacts;
}

/** A fence that cannot be closed by anything inside the text. */
function fenced(text: string, info = 'text'): string {
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((r) => r.trim().length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

export function resumeParts(handoff: Handoff, pins: readonly Pin[], since: SinceFacts): ResumeParts {
  const section = (title: string) => {
    const s = findSection(handoff.body, title);
    return s ? sectionText(s.content) : '';
  };
  const files = renderFileGroups(handoff.meta.files);
  return {
    id: handoff.meta.id,
    file: handoff.file,
    goal: handoff.meta.goal,
    pins: pins.map((p) => ({ id: p.meta.id, text: p.text, ...(p.meta.scope ? { scope: p.meta.scope } : {}) })),
    next_steps: section('Next steps'),
    in_progress: section('In progress'),
    open_questions: section('Open questions'),
    decisions: section('Decisions'),
    // A draft lists the files under Current state; they are shown once, under Files.
    current_state: section('Current state').replace(files, '').trim(),
    completed: section('Completed'),
    references: section('References'),
    files,
    since,
  };
}

function renderSince(since: SinceFacts): string {
  const lines: string[] = [];
  if (!since.head) {
    lines.push('- The handoff was written before the first commit.');
  } else if (!since.headFound) {
    lines.push(`- Its commit ${since.head.slice(0, 12)} is not in this repository (rebased away, or not fetched): compare with care.`);
  } else if (since.commitCount === 0) {
    lines.push(`- No commits since it was written (at ${since.head.slice(0, 12)}).`);
  } else {
    lines.push(`- ${since.commitCount} commit${since.commitCount === 1 ? '' : 's'} since it was written (at ${since.head.slice(0, 12)}):`);
    for (const c of since.commits) lines.push(`  - ${c.hash.slice(0, 7)} ${c.subject}`);
    if (since.commitCount > since.commits.length) lines.push(`  - ... and ${since.commitCount - since.commits.length} more`);
  }
  if (since.changedFiles.length > 0) {
    lines.push(`- Files changed since then: ${since.changedFiles.map(code).join(', ')}`);
  } else if (since.headFound) {
    lines.push(`- No ${since.stillUncommitted.length > 0 ? 'other ' : ''}tracked file has changed since then.`);
  }
  if (since.stillUncommitted.length > 0) {
    lines.push(`- Uncommitted when it was written, and still not committed: ${since.stillUncommitted.map(code).join(', ')}`);
  }
  if (since.missingFiles.length > 0) {
    lines.push(`- Listed files that no longer exist: ${since.missingFiles.map(code).join(', ')}`);
  }
  return lines.join('\n');
}

export function renderResume(template: string, parts: ResumeParts): string {
  const block = (title: string, text: string) => (text ? `## ${title}\n\n${text}` : '');
  const pins = parts.pins
    .map((p) => `### Pin ${p.id}${p.scope ? ` (applies to ${p.scope.map(code).join(', ')})` : ''}\n\n${fenced(p.text)}`)
    .join('\n\n');
  return fill(template, {
    pins: block('Pinned constraints', pins),
    goal: block('Goal', fenced(parts.goal)),
    next_steps: block('Next steps', parts.next_steps),
    in_progress: block('In progress', parts.in_progress),
    open_questions: block('Open questions', parts.open_questions),
    decisions: block('Decisions', parts.decisions),
    current_state: block('Current state', parts.current_state),
    completed: block('Completed', parts.completed),
    references: block('References', parts.references),
    files: block('Files', parts.files),
    since: block('Since the handoff', renderSince(parts.since)),
    source: `(Handoff ${parts.id}, ${code(parts.file)}. Run \`handoff new "<next goal>"\` before you stop or your context fills.)`,
  });
}
