// A handoff a pull request adds or changes reaches the next agent session as "the previous
// session's work": it steers an agent as a pin does. `check --base` reviews it the same
// way: who committed it (from git, never from the file) and what in its text reads as
// aimed at agents (injection wording, hidden characters, HTML comments). Pure: the command
// gathers the texts and authors.
import type { Finding } from './rules.js';
import type { Change } from './report.js';
import { pinFlags, revealHidden } from './pin-flags.js';

export interface HandoffToReview {
  file: string;
  change: Change;
  /** The goal and the body: everything the resume prompt quotes. */
  text: string;
  /** Who committed it on the branch (pin-review.ts committedBy), or null when no commit since the base changed it. */
  committedBy: string | null;
}

/** The lines that raise a flag, hidden characters shown, so the one-line message shows what to read. */
function flaggedLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => pinFlags(line).length > 0)
    .slice(0, 3)
    .map((line) => JSON.stringify(revealHidden(line.length > 200 ? `${line.slice(0, 197)}...` : line)));
}

/**
 * One finding per handoff the branch added or whose text it changed: a notice naming its
 * author; a warning naming what stands out, and where, when its text reads as aimed at
 * agents. Neither fails the check: a person judges.
 */
export function handoffReviewFindings(handoffs: readonly HandoffToReview[]): Finding[] {
  return handoffs.map((h) => {
    const who = `handoff ${h.change} by ${h.committedBy ?? 'an uncommitted change'}`;
    const flags = pinFlags(h.text);
    if (flags.length === 0)
      return {
        level: 'notice' as const,
        file: h.file,
        rule: 'handoff-review',
        message: `${who}: the next agent session reads it as the previous session's work, so review it like code`,
      };
    const lines = flaggedLines(h.text);
    return {
      level: 'warning' as const,
      file: h.file,
      rule: 'handoff-review',
      message: `${who} contains ${flags.join('; ')}: the next agent session reads it as the previous session's work, so read it closely before merging${lines.length > 0 ? `: ${lines.join(' ')}` : ''}`,
    };
  });
}
