#!/usr/bin/env node
// Prints the sentences of one transcript that are worth labelling for
// test/fixtures/sentence-corpus.jsonl, one JSON row a line, split as the extractor splits a turn
// (the product's reader for the format, then `sentences()`), with what the extractor knows at the
// sentence: `context.failed` (the command that had just failed, for the agent's next turn) and
// `context.question` (the question of the agent's turn before a user turn). No label is printed:
// the labeller adds `class` by the rubric, reading the transcript, before any classifier runs.
//
// Taken, as for the fifth batch: every sentence a broad word list marks (a choice, a change, a
// failure, a question), and a seeded sample of the rest (the SHA-256 of `sample`, a newline and the text, `--sample` in
// 100); lines under 25 characters, code, paths, logs and subagents' turns are left out.
//
//   node scripts/corpus-candidates.js --agent specstory --file session.md [--sample 35] [--from LINE] [--to LINE]
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { internals } from '../bench/internals.js';

const { values } = parseArgs({
  options: {
    agent: { type: 'string' },
    file: { type: 'string' },
    sample: { type: 'string', default: '35' },
    from: { type: 'string', default: '0' },
    to: { type: 'string', default: String(Number.MAX_SAFE_INTEGER) },
  },
});
if (values.agent === undefined || values.file === undefined) {
  console.error(
    'usage: node scripts/corpus-candidates.js --agent <claude-code|specstory|aider|opencode-export|...> --file <transcript>',
  );
  process.exit(2);
}
const [{ READERS }, { sentences }, { readLines }] = await internals(
  'transcripts/readers.ts',
  'transcripts/sentence-rules.ts',
  'transcripts/lines.ts',
);
// OpenCode sessions exported to Markdown (`### N. user|assistant (time)` per message, text parts
// only), as the corpus's unseen OpenCode rows were: no reader of the product parses this export.
async function* readOpenCodeExport(lines) {
  let turn;
  let n = 0;
  // A file the user attached is inlined between <content> and </content> (a folder, <entries>).
  let attached = false;
  for await (const line of lines) {
    n++;
    if (/^<(?:content|entries)>/.test(line)) attached = true;
    if (/^<\/(?:content|entries)>/.test(line)) {
      attached = false;
      continue;
    }
    if (attached || line.startsWith('_No text content captured') || line === '## Notes') continue;
    const head = /^### \d+\. (user|assistant) \(/.exec(line);
    if (head) {
      if (turn !== undefined) yield turn;
      turn = { kind: head[1], text: '', line: n };
    } else if (turn !== undefined && !/^Called the \w+ tool with the following input:/.test(line))
      turn.text += `${line}\n`;
  }
  if (turn !== undefined) yield turn;
}
const read = values.agent === 'opencode-export' ? readOpenCodeExport : READERS[values.agent];
if (read === undefined) {
  console.error(`unknown agent ${values.agent}; expected one of ${Object.keys(READERS).join(', ')}`);
  process.exit(2);
}

const MARKED =
  /\b(?:decid|chose|choos|pick|go with|going with|opt|prefer|instead|rather|switch|revert|back to|drop|abandon|give up|gave up|didn't work|doesn't work|won't work|fail|broke|not work|let's|let us|we'll|I'll|should|shouldn't|use|using|keep|plan|approach|option|alternative|actually|wait|no,|don't|never|always|only|must|why|how about|what about|would you|do you|want)\b|\?/i;
const bucket = (text) => Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16) % 100;
const sample = Number(values.sample);
const from = Number(values.from);
const to = Number(values.to);
const usable = (s) =>
  s.length >= 25 &&
  !/^\d+→|^[`/\\$#{[<|]|^\w+\(|^(?:\w+\/)+\w|\x1b|^[\w.-]+\.(?:ts|js|go|py|md|json)\b/.test(s) &&
  !/^\*\*[^*]+\*\*:?$/.test(s);

let failed;
let pendingFailure;
let question;
const calls = new Map();
for await (const e of read(readLines(values.file), { records: 0, badLines: 0, unknown: 0 })) {
  if (e.sidechain) continue;
  if (e.kind === 'tool-call') calls.set(e.id, `${e.name} ${JSON.stringify(e.input).slice(0, 120)}`);
  if (e.kind === 'shell' && e.exitCode !== undefined && e.exitCode !== 0) pendingFailure = e.command.slice(0, 160);
  if (e.kind === 'tool-result' && e.isError) pendingFailure = calls.get(e.id) ?? 'a tool call';
  if (e.kind !== 'user' && e.kind !== 'assistant') continue;
  if (e.kind === 'assistant') {
    failed = pendingFailure;
    pendingFailure = undefined;
  } else failed = undefined;
  const all = sentences(e.text);
  if (e.line >= from && e.line <= to)
    for (const text of all) {
      if (!usable(text)) continue;
      // Salted, so that the sample does not follow the hash that splits the corpus into its parts.
      if (!MARKED.test(text) && bucket(`sample\n${text}`) >= sample) continue;
      const context = {};
      if (failed !== undefined) context.failed = failed;
      if (e.kind === 'user' && question !== undefined) context.question = question;
      const row = { text, speaker: e.kind, line: e.line };
      if (Object.keys(context).length > 0) row.context = context;
      console.log(JSON.stringify(row));
    }
  if (e.kind === 'assistant') question = all.filter((s) => s.endsWith('?')).at(-1);
  else question = undefined;
}
