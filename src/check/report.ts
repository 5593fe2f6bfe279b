// How `handoff check` reports: plain text, GitHub workflow commands, and the Markdown
// summary for a pull request (what changed, resume prompt sizes, a Mermaid chain graph).
import { mermaidChain } from '../roadmap/chain-graph.js';
import type { Finding } from './rules.js';
import type { Handoff } from '../store/handoff.js';
import { uniquePrefixes } from '../store/id.js';
import { inline } from '../store/markdown.js';
import type { PinToReview } from './pin-review.js';
import { revealHidden } from './pin-flags.js';

export function textReport(findings: readonly Finding[]): string {
  return findings.map((f) => `${f.file}${f.line ? `:${f.line}` : ''}: ${f.level}: ${f.message} [${f.rule}]\n`).join('');
}

/** GitHub's escaping for workflow-command properties and messages. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubAnnotations(findings: readonly Finding[]): string {
  return findings
    .map(
      (f) =>
        `::${f.level} file=${escapeProperty(f.file)}${f.line ? `,line=${f.line}` : ''},title=${escapeProperty(`handoff check: ${f.rule}`)}::${escapeData(f.message)}\n`,
    )
    .join('');
}

export type Change = 'added' | 'modified' | 'deleted';

export interface SummaryData {
  base: string | null;
  findings: readonly Finding[];
  handoffs: Array<{ handoff: Handoff; change: Change; promptChars: number; promptTokens: number }>;
  pins: PinToReview[];
  /** Every handoff, for the chain graph. */
  all: readonly Handoff[];
}

export function markdownSummary(data: SummaryData): string {
  const ids = [...data.all.map((h) => h.meta.id), ...data.pins.map((p) => p.id)];
  const prefixes = uniquePrefixes(ids);
  const short = (id: string) => prefixes.get(id) ?? id.slice(0, 8);
  const errors = data.findings.filter((f) => f.level === 'error').length;
  const warnings = data.findings.filter((f) => f.level === 'warning').length;
  const out: string[] = ['## handoff check', ''];
  out.push(
    errors === 0
      ? `No problems${warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}${data.base ? ` since \`${data.base.slice(0, 12)}\`` : ''}.`
      : `${errors} problem${errors === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}:`,
  );
  for (const f of data.findings.filter((x) => x.level !== 'notice'))
    out.push(`- **${f.level}** \`${f.file}${f.line ? `:${f.line}` : ''}\`: ${inline(f.message)}`);
  out.push('');
  out.push('### Handoffs added or changed', '');
  if (data.handoffs.length === 0) out.push('None.');
  else {
    out.push('| handoff | change | status | goal | resume prompt |', '|---|---|---|---|---|');
    for (const { handoff: h, change, promptChars, promptTokens } of data.handoffs) {
      const goal = inline(h.meta.goal).replace(/\|/g, '\\|');
      out.push(
        `| \`${short(h.meta.id)}\` | ${change} | ${h.meta.status} | ${goal.length > 80 ? `${goal.slice(0, 77)}...` : goal} | ${promptChars.toLocaleString('en-US')} chars (~${promptTokens.toLocaleString('en-US')} tokens) |`,
      );
    }
  }
  out.push('', '### Pins added or retired', '');
  if (data.pins.length === 0) out.push('None.');
  for (const p of data.pins)
    out.push(
      `- ${p.change} \`${short(p.id)}\`${p.flags.length > 0 ? ' (**read closely**)' : ''}: ${inline(revealHidden(p.text)).slice(0, 120).replace(/</g, '&lt;')}`,
    );
  const review = data.pins.filter((p) => p.review);
  if (review.length > 0) {
    out.push(
      '',
      '### Pins to review',
      '',
      'Every agent working in this repository is told to obey these word for word. Read each one as you would read code.',
      '',
    );
    for (const p of review) {
      const flagged =
        p.flags.length > 0
          ? [
              `**Read closely:** it contains ${p.flags.map(inline).join('; ')}. Hidden characters are shown as \`<U+XXXX>\`.`,
              '',
            ]
          : [];
      out.push(
        `#### \`${short(p.id)}\` (${p.change}, committed by ${p.committedBy ? inline(p.committedBy) : 'nobody yet: not committed'})`,
        '',
        ...flagged,
        '````text',
        revealHidden(p.text)
          .replace(/`{4,}/g, (m) => m.split('').join('\u200b'))
          .trimEnd(),
        '````',
        '',
      );
    }
  }
  const graph = mermaidChain(
    data.handoffs.map((h) => h.handoff),
    data.all,
  );
  if (graph) out.push('', '### Handoff chain', '', graph);
  return `${out.join('\n')}\n`;
}
