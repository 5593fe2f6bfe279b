// Pins are the one text every agent is told to obey word for word, and a pull request can
// add one. `check --base` flags each pin the branch added or changed, with its full text
// and who committed it (from git, never from the file), so a reviewer reads it like code.
import { gitRaw } from '../git/git-plumbing.js';
import type { Finding } from './rules.js';
import type { Change } from './report.js';

export interface PinToReview {
  id: string;
  file: string;
  change: Change | 'retired';
  text: string;
  /** "Name <email>" of the commit that added the file, or null when it is not committed yet. */
  addedBy: string | null;
  /** Added, or its text changed: something new an agent will be told to obey. */
  review: boolean;
}

/** Who committed each file first, from git log (newest first: the last seen is the first add). */
export async function addedBy(root: string, files: readonly string[]): Promise<Map<string, string>> {
  const by = new Map<string, string>();
  if (files.length === 0) return by;
  const log = await gitRaw(root, ['log', '--diff-filter=A', '--no-renames', '--format=%x01%an <%ae>', '--name-only', '-z', '--', ...files.map((f) => `:(top,literal)${f}`)]);
  if (log.code !== 0) return by;
  let author = '';
  for (const token of log.stdout.toString('utf8').split(/[\0\n]/)) {
    if (token.startsWith('\x01')) author = token.slice(1);
    else if (token && author) by.set(token, author);
  }
  return by;
}

/** One notice per pin to review: the text in full, one line, since annotations show one message. */
export function pinReviewFindings(pins: readonly PinToReview[]): Finding[] {
  return pins
    .filter((p) => p.review)
    .map((p) => ({
      level: 'notice' as const,
      file: p.file,
      rule: 'pin-review',
      message: `pin ${p.change} by ${p.addedBy ?? 'an uncommitted change'}: every agent is told to obey it word for word, so review it like code: ${JSON.stringify(p.text.trimEnd())}`,
    }));
}
