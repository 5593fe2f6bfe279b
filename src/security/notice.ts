// The one line that tells the user secrets were redacted, apart from the patterns
// (redact.ts) so that saying it loads none of them.

/** The kinds found, de-duplicated, for a message: "github-token, aws-access-key". */
export function kindList(kinds: readonly string[]): string {
  return [...new Set(kinds)].join(', ');
}

/** Where a secret redacted from what a read command printed still is. */
export const IN_FILES = 'the files under .handoff/ still hold them';

/** One stderr line; empty when nothing was redacted. */
export function redactionNotice(kinds: readonly string[], where: string, override: string): string {
  if (kinds.length === 0) return '';
  const n = kinds.length;
  return `handoff: redacted ${n} secret${n === 1 ? '' : 's'} (${kindList(kinds)}) from ${where}; ${override}`;
}
