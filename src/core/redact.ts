// Secret redaction: everything that may reach a file under .handoff/, a resume prompt, a
// hook's output or a model request passes through here first.
// (First cut: a few patterns; to be replaced by a maintained secret-pattern library.)

export interface Redaction {
  kind: string;
  /** Offset of the match in the original text. */
  index: number;
}

export interface Redacted {
  text: string;
  redactions: Redaction[];
}

const PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['github-token', /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g],
  ['openai-key', /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b/g],
];

export function redactSecrets(text: string): Redacted {
  const redactions: Redaction[] = [];
  let out = text;
  for (const [kind, pattern] of PATTERNS) {
    out = out.replace(pattern, (match: string, index: number) => {
      redactions.push({ kind, index });
      return `[REDACTED:${kind}]`;
    });
  }
  return { text: out, redactions };
}
