// Secret redaction: everything that may reach a file under .handoff/, a resume prompt, a
// hook's output or a model request passes through here first.
//
// The patterns come from secretlint's recommended preset (the only importer of
// @secretlint/secretlint-rule-preset-recommend): maintained rules for AWS, GCP, GitHub,
// GitLab, Slack, npm, OpenAI, Anthropic, private keys, basic-auth URLs, database
// connection strings and more. Quirks: secretlint's own runner (@secretlint/core) is
// async, and this API is synchronous, so we drive the rules directly: each rule's
// `file(source)` handler is synchronous and reports `{range: [start, end]}`; a rule that
// ever answers with a promise is skipped rather than awaited. Pinned to 12.x: 13.x declares
// engines node >=22. The preset is one bundled
// file, so loading it whole is cheap.
// A few extra patterns below cover shapes the preset deliberately leaves to context
// (bare AWS key ids, OpenAI keys without their marker, JWTs, Stripe keys, passwords in
// URLs and KEY=value lines that name a password, secret or token).
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

export interface Redaction {
  kind: string;
  /** Offset of the match in the original text. */
  index: number;
}

export interface Redacted {
  text: string;
  redactions: Redaction[];
}

interface Report {
  range: readonly [number, number];
}
interface Rule {
  meta: { id: string };
  create(context: unknown, options: unknown): { file?: (source: unknown) => unknown };
}

// Where a pattern has a `secret` group, only that part is redacted, so the label stays
// readable ("DATABASE_PASSWORD=[REDACTED:dotenv-secret]").
const EXTRA: ReadonlyArray<[string, RegExp]> = [
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/dg],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/dg],
  ['github-token', /\bgh[pousr]_[A-Za-z0-9]{36,}\b/dg],
  ['openai-key', /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b/dg],
  ['stripe-key', /\b[rs]k_(?:live|test)_[0-9a-zA-Z]{16,}\b/dg],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg],
  ['password-in-url', /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:(?<secret>[^\s@/]+)@/dgi],
  [
    'dotenv-secret',
    /\b[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY)[A-Z0-9_]*[ \t]*=[ \t]*["']?(?<secret>[^\s"'#]{6,})/dg,
  ],
];

let rules: Array<[Rule, unknown]> | undefined;

function loadRules(): Array<[Rule, unknown]> {
  if (rules) return rules;
  const found: Array<[Rule, unknown]> = [];
  const preset = recommended as unknown as { create(context: unknown, options: unknown): void };
  preset.create(
    { registerRule: (rule: Rule, options: unknown) => found.push([rule, options ?? {}]), sharedOptions: {} },
    {},
  );
  // The comment-directive filter only ignores; it never finds anything.
  rules = found.filter(([rule]) => !rule.meta.id.endsWith('filter-comments'));
  return rules;
}

/** Kind names without the package prefix: "github", "slack", ... */
function kindOf(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

function libraryMatches(text: string): Array<{ kind: string; start: number; end: number }> {
  const out: Array<{ kind: string; start: number; end: number }> = [];
  const source = { content: text, filePath: 'transcript.txt', ext: '.txt', contentType: 'text' };
  for (const [rule, options] of loadRules()) {
    const kind = kindOf(rule.meta.id);
    const context = {
      report: (d: Report) => out.push({ kind, start: d.range[0], end: d.range[1] }),
      ignore: () => {},
      createTranslator: () => (messageId: string, data: unknown) => ({ message: messageId, messageId, data }),
      sharedOptions: {},
    };
    try {
      rule.create(context, options).file?.(source);
    } catch {
      // A rule that throws on odd input must not stop the others from running.
    }
  }
  return out;
}

/** Some rules report a range that stops short of the key (secretlint's AWS rule does): a
 *  finding always runs to the end of the token it starts, so no tail of a key survives. */
function toTokenEnd(text: string, end: number): number {
  while (end < text.length && /[A-Za-z0-9+/=_-]/.test(text[end]!)) end++;
  return end;
}

export function redactSecrets(text: string): Redacted {
  const spans = libraryMatches(text).map((s) => ({ ...s, end: toTokenEnd(text, s.end) }));
  for (const [kind, pattern] of EXTRA) {
    for (const m of text.matchAll(pattern)) {
      const [start, end] = m.indices?.groups?.secret ?? [m.index, m.index + m[0].length];
      spans.push({ kind, start, end });
    }
  }
  if (spans.length === 0) return { text, redactions: [] };
  // Overlapping findings (two rules on one key) become one redaction: the earliest start wins.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const redactions: Redaction[] = [];
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    const start = Math.max(span.start, at);
    out += text.slice(at, start) + `[REDACTED:${span.kind}]`;
    if (start === span.start) redactions.push({ kind: span.kind, index: span.start });
    at = span.end;
  }
  return { text: out + text.slice(at), redactions };
}
