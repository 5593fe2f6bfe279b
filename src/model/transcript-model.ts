// What the model is shown of a transcript: the extraction, mapped to the model's input.
// The user's own words (recent turns and stated rules) are what quotes are checked
// against; a command counts as passed only when the transcript recorded it passing.
// Pure: the extraction was already redacted by the readers.
import type { Extraction } from '../transcripts/extract.js';
import type { TranscriptPart } from './model-input.js';

export function transcriptPart(x: Extraction): TranscriptPart {
  const byLine = <T extends { line: number }>(items: readonly T[]) => [...items].sort((a, b) => a.line - b.line);
  const userWords = byLine([...x.constraints, ...x.recentUser]);
  const events: string[] = [];
  for (const d of byLine(x.decisions)) events.push(`assistant (line ${d.line}): ${d.text}`);
  for (const f of byLine(x.files))
    events.push(`edit (line ${f.line}): ${f.change} ${f.path}${f.from ? ` from ${f.from}` : ''}`);
  for (const c of byLine(x.commands))
    events.push(
      `command (line ${c.line}): ${c.command} -> ${c.passed === undefined ? 'result not recorded' : c.passed ? 'passed' : 'failed'}${c.subagent ? ' (subagent)' : ''}`,
    );
  if (x.plan) events.push(`approved plan (line ${x.plan.line}): ${x.plan.text}`);
  const notes = [
    ...x.decisions.map((d) => `decision (quoted): ${d.text}`),
    ...(x.todos?.items ?? []).map((t) => `todo (${t.status}): ${t.text}`),
  ];
  return {
    userMessages: [...new Set(userWords.map((q) => q.text))],
    events,
    extracted: {
      files: [...new Set(x.files.flatMap((f) => (f.from ? [f.path, f.from] : [f.path])))],
      commands: x.commands.map((c) => ({ command: c.command, passed: c.passed === true })),
      notes,
    },
  };
}
