// @ts-check
// Figures for the model path, per real fixture transcript: tokens sent, tokens in the
// resulting resume prompt, the Codex-style comparison (last 20,000 tokens of user
// messages plus a summary), and the time spent outside the HTTP wait.
// Usage: npm run build && node bench/model-figures.js [fixtures-dir] [name-filter]
// (With a filter naming one fixture, its line is a cold run: imports included.)
// Transcripts go through the real readers and extraction; the model is a local server
// answering a fixed reply at once, so only our own time counts.
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = process.argv[2] ?? path.resolve(here, '../test/fixtures/transcripts');

// The real pipeline: detect the format, stream the events, extract, map to the model input.
async function read(file) {
  const opened = await openTranscript(file, path.basename(file));
  const x = new Extractor(opened.agent);
  for await (const e of opened.events()) x.add(e);
  return transcriptPart(x.result());
}

const [
  { draftWithModel },
  { DEFAULT_LLM },
  { estimateTokens },
  { serializeHandoff, parseHandoff },
  { resumeParts, renderResume },
  { readTemplate },
  { openTranscript },
  { Extractor },
  { transcriptPart },
] = await internals(
  'model/new-model.ts',
  'store/llm-block.ts',
  'transcripts/tokens.ts',
  'store/handoff.ts',
  'resume/prompt.ts',
  'store/templates.ts',
  'transcripts/open.ts',
  'transcripts/extract.ts',
  'model/transcript-model.ts',
);
const filter = process.argv[3] ?? '';
const count = estimateTokens;
const item = (text) => ({ text, why: '', files: [], quotes: [], commands_passed: [] });
const reply = JSON.stringify({
  completed: [item('Finished the first part')],
  in_progress: [],
  next_steps: [item('Continue with the goal')],
  open_questions: [],
  decisions: [],
  pin_candidates: [],
});
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    res.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
      }),
    ),
  );
});
await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
const endpoint = {
  baseURL: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1`,
  model: 'bench-model',
  apiKey: 'x',
  configured: true,
};
const template = await readTemplate('handoff.md');
const draft = template.replace(/\{\{goal\}\}/, 'continue the work').replace(/\{\{[a-z_]+\}\}\n\n?/g, '');
const pins = [{ id: '01jx7k2m000000000000000000', text: 'never touch src/auth' }];

const files = readdirSync(fixtures, { recursive: true })
  .map((f) => path.join(fixtures, f))
  .filter((f) => /\.(jsonl|json|md)$/.test(f) && !f.endsWith('SOURCES.md') && f.includes(filter));
console.log(
  'fixture | size | user msgs | events | tokens sent | left out | resume prompt | codex-style user part | ms outside HTTP',
);
for (const file of files.sort((a, b) => statSync(a).size - statSync(b).size)) {
  const started = performance.now();
  const transcript = await read(file);
  const input = { goal: 'continue the work', files: [], commits: [], draft, pins, transcript };
  const { body, stats } = await draftWithModel({
    input,
    llm: DEFAULT_LLM,
    endpoint,
    dryRun: false,
    stdout: () => {},
    stderr: () => {},
  });
  const outside = performance.now() - started - stats.waitMs;
  const meta = {
    id: '01jx7k2m000000000000000001',
    goal: 'continue the work',
    status: 'open',
    created: '2026-01-01T00:00:00.000Z',
    author: 'a',
    branch: 'main',
    base: null,
    head: null,
    parent: null,
    files: [],
  };
  const handoff = parseHandoff(serializeHandoff(meta, body), 'h.md');
  const since = {
    head: null,
    headFound: false,
    commits: [],
    commitCount: 0,
    changedFiles: [],
    stillUncommitted: [],
    missingFiles: [],
  };
  const resume = renderResume(
    await readTemplate('resume.md'),
    resumeParts(
      handoff,
      pins.map((p) => ({ meta: { id: p.id }, text: p.text })),
      since,
    ),
  );
  // Codex keeps the newest user messages up to 20,000 tokens, plus a model-written summary (not counted here).
  let codex = 0;
  for (const m of [...transcript.userMessages].reverse()) codex = Math.min(20_000, codex + count(m));
  console.log(
    [
      path.relative(fixtures, file),
      `${Math.round(statSync(file).size / 1024)} KiB`,
      transcript.userMessages.length,
      transcript.events.length,
      stats.tokens,
      stats.omittedTokens,
      count(resume),
      `${codex} + summary`,
      Math.round(outside),
    ].join(' | '),
  );
}
server.close();
