// Figures for the model path, per real fixture transcript: tokens sent, tokens in the
// resulting resume prompt, the Codex-style comparison (last 20,000 tokens of user
// messages plus a summary), and the time spent outside the HTTP wait.
// Usage: npm run build && node bench/model-figures.js [fixtures-dir] [name-filter]
// (With a filter naming one fixture, its line is a cold run: imports and the tokenizer included.)
// The transcript readers here are crude stand-ins (issue 4 brings the real ones); the
// model is a local server answering a fixed reply at once, so only our own time counts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = process.argv[2] ?? path.resolve(here, '../../shared/fixtures/transcripts');

const cut = (s, n = 300) => (s.length > n ? `${s.slice(0, n)} [...]` : s);
const textOf = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.filter((b) => b?.type === 'text' || b?.type === 'input_text' || b?.type === 'output_text').map((b) => b.text).join('\n') : '');

function read(file) {
  const raw = readFileSync(file, 'utf8');
  const t = { userMessages: [], events: [], extracted: { files: [], commands: [], notes: [] } };
  const tool = (name, input) => {
    const args = typeof input === 'string' ? safe(input) ?? { raw: input } : input ?? {};
    const p = args.file_path ?? args.path ?? args.notebook_path;
    if (typeof p === 'string' && /edit|write|replace/i.test(name)) t.extracted.files.push(p);
    const cmd = args.command ?? args.cmd;
    if (cmd) t.extracted.commands.push({ command: Array.isArray(cmd) ? cmd.join(' ') : String(cmd), passed: false });
    t.events.push(`tool call ${name}: ${cut(JSON.stringify(args), 200)}`);
  };
  if (file.endsWith('.md')) {
    // aider: user lines start with "#### "; SpecStory: "_**User ...**_" blocks.
    const blocks = raw.split(/\n(?=_\*\*(?:User|Assistant|Agent)[^\n]*\*\*_)/);
    if (blocks.length > 1) {
      for (const b of blocks) (/^_\*\*User/.test(b) ? t.userMessages : t.events).push(b.replace(/^_\*\*[^\n]*\n/, '').trim());
    } else {
      let user = [];
      for (const line of raw.split('\n')) {
        if (line.startsWith('#### ')) user.push(line.slice(5));
        else {
          if (user.length) t.userMessages.push(user.join('\n')), (user = []);
          if (line.trim()) t.events.push(line);
        }
      }
    }
    return t;
  }
  const records = file.endsWith('.json') ? (JSON.parse(raw).messages ?? []) : raw.split('\n').filter(Boolean).map(safe).filter(Boolean);
  for (const r of records) {
    if (r.type === 'user' && typeof r.content === 'string') t.userMessages.push(r.content); // gemini
    else if (r.type === 'gemini') t.events.push(`assistant: ${cut(textOf(r.content) || String(r.content ?? ''))}`);
    const m = r.message ?? (r.type === 'response_item' ? r.payload : undefined);
    if (r.type === 'event_msg' && r.payload?.type === 'user_message') t.userMessages.push(r.payload.message);
    if (r.type === 'response_item' && r.payload?.type === 'function_call') tool(r.payload.name, r.payload.arguments);
    if (!m || !m.role) continue;
    if (m.role === 'user' && r.type !== 'response_item' && !r.isMeta) {
      const text = textOf(m.content);
      if (text && !text.startsWith('<')) t.userMessages.push(text);
    } else if (m.role === 'assistant') {
      const text = textOf(m.content);
      if (text) t.events.push(`assistant: ${text}`);
      for (const b of Array.isArray(m.content) ? m.content : []) if (b?.type === 'tool_use' || b?.type === 'toolCall') tool(b.name, b.input ?? b.arguments);
    }
  }
  return t;
}
function safe(s) {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);
const [{ draftWithModel }, { DEFAULT_LLM }, { loadTokenCounter }, { serializeHandoff, parseHandoff }, { resumeParts, renderResume }, { readTemplate }] = await Promise.all([
  dist('commands/new-model.js'),
  dist('core/llm-config.js'),
  dist('core/tokens.js'),
  dist('core/handoff.js'),
  dist('core/resume.js'),
  dist('io/templates.js'),
]);
const filter = process.argv[3] ?? '';
const t0 = performance.now();
const count = await loadTokenCounter();
const tokenizerMs = performance.now() - t0;
const item = (text) => ({ text, why: '', files: [], quotes: [], commands_passed: [] });
const reply = JSON.stringify({ completed: [item('Finished the first part')], in_progress: [], next_steps: [item('Continue with the goal')], open_questions: [], decisions: [], pin_candidates: [] });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }] })));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const endpoint = { baseURL: `http://127.0.0.1:${server.address().port}/v1`, model: 'bench-model', apiKey: 'x', configured: true };
const template = await readTemplate('handoff.md');
const draft = template.replace(/\{\{goal\}\}/, 'continue the work').replace(/\{\{[a-z_]+\}\}\n\n?/g, '');
const pins = [{ id: '01jx7k2m000000000000000000', text: 'never touch src/auth' }];

const files = readdirSync(fixtures, { recursive: true }).map((f) => path.join(fixtures, f)).filter((f) => /\.(jsonl|json|md)$/.test(f) && !f.endsWith('SOURCES.md') && f.includes(filter));
console.log('fixture | size | user msgs | events | tokens sent | left out | resume prompt | codex-style user part | ms outside HTTP');
for (const file of files.sort((a, b) => statSync(a).size - statSync(b).size)) {
  const started = performance.now();
  const transcript = read(file);
  const input = { goal: 'continue the work', files: [], commits: [], draft, pins, transcript };
  const { body, stats } = await draftWithModel({ input, llm: DEFAULT_LLM, endpoint, dryRun: false, stdout: () => {}, stderr: () => {} });
  const outside = performance.now() - started - stats.waitMs;
  const meta = { id: '01jx7k2m000000000000000001', goal: 'continue the work', status: 'open', created: '2026-01-01T00:00:00.000Z', author: 'a', branch: 'main', base: null, head: null, parent: null, files: [] };
  const handoff = parseHandoff(serializeHandoff(meta, body), 'h.md');
  const since = { head: null, headFound: false, commits: [], commitCount: 0, changedFiles: [], missingFiles: [] };
  const resume = renderResume(await readTemplate('resume.md'), resumeParts(handoff, pins.map((p) => ({ meta: { id: p.id }, text: p.text })), since));
  // Codex keeps the newest user messages up to 20,000 tokens, plus a model-written summary (not counted here).
  let codex = 0;
  for (const m of [...transcript.userMessages].reverse()) codex = Math.min(20_000, codex + count(m));
  console.log([path.relative(fixtures, file), `${Math.round(statSync(file).size / 1024)} KiB`, transcript.userMessages.length, transcript.events.length, stats.tokens, stats.omittedTokens, count(resume), `${codex} + summary`, Math.round(outside)].join(' | '));
}
server.close();
console.log(`tokenizer load: ${Math.round(tokenizerMs)} ms (once per process, before the first line)`);
