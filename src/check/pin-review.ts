// Pins are the one text every agent is told to obey word for word, and a pull request can
// add one. `check --base` flags each pin the branch added or changed, with its full text
// and who committed it (from git, never from the file), so a reviewer reads it like code.
import type { Git } from '../git/git.js';
import type { Finding } from './rules.js';
import type { Change } from './report.js';
import { pinFlags, revealHidden } from './pin-flags.js';

export interface PinToReview {
  id: string;
  file: string;
  change: Change | 'retired';
  text: string;
  /** Who committed it on the branch (committedBy), or null when no commit since the base changed it. */
  committedBy: string | null;
  /** Added, or its text changed: something new an agent will be told to obey. */
  review: boolean;
  /** Why it reads as aimed at agents rather than the team (hidden characters, injection wording); empty when nothing stands out. */
  flags: string[];
}

/**
 * Who committed each file on the branch: the authors of the commits since `base` that
 * changed it (a merge only where its result is its own), newest first, each once ("Name
 * <email>, Name <email>"); a file none of them changed (an uncommitted change) is left out.
 * Only the branch's commits are walked. This was who first added each file: a walk of the
 * whole history (0.7 s at 30,000 commits), which named the first author of a pin the branch
 * rewrote instead of who rewrote it.
 */
export async function committedBy(git: Git, base: string, files: readonly string[]): Promise<Map<string, string>> {
  const by = new Map<string, string[]>();
  const log =
    files.length === 0
      ? null
      : await git.changedIn(
          `${base}..HEAD`,
          '%x01%an <%ae>',
          files.map((f) => `:(top,literal)${f}`),
        );
  let author = '';
  for (const token of log?.split(/[\0\n]/) ?? []) {
    if (token.startsWith('\x01')) author = token.slice(1);
    else if (token && author) {
      const authors = by.get(token) ?? [];
      if (!authors.includes(author)) authors.push(author);
      by.set(token, authors);
    }
  }
  return new Map([...by].map(([file, authors]) => [file, authors.join(', ')]));
}

/**
 * One finding per pin to review: the text in full on one line (annotations show one message),
 * hidden characters shown as <U+XXXX>. A notice, or a warning naming what stands out when
 * the text reads as aimed at agents; neither fails the check: a person judges.
 */
export function pinReviewFindings(pins: readonly PinToReview[]): Finding[] {
  return pins
    .filter((p) => p.review)
    .map((p) => {
      const who = `pin ${p.change} by ${p.committedBy ?? 'an uncommitted change'}`;
      const text = JSON.stringify(revealHidden(p.text.trimEnd()));
      return p.flags.length === 0
        ? {
            level: 'notice' as const,
            file: p.file,
            rule: 'pin-review',
            message: `${who}: every agent is told to obey it word for word, so review it like code: ${text}`,
          }
        : {
            level: 'warning' as const,
            file: p.file,
            rule: 'pin-review',
            message: `${who} contains ${p.flags.join('; ')}: every agent is told to obey it word for word, so read it closely before merging: ${text}`,
          };
    });
}

export { pinFlags };
