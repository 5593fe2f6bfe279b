#!/usr/bin/env node
// @ts-check
// Chain fidelity: chains of handoffs built from scripted agent sessions with planted
// facts (a user constraint, decisions and their replacements, todo transitions,
// questions nobody answered, failed attempts, files), each hop handed off with
// `handoff new --from <transcript>` and a commit, as a user would. At the last hop's
// resume prompt it reports: planted live facts kept verbatim (goal 100%), stale or
// superseded facts shown as current (goal 0), duplicate items (goal 0), and the
// prompt's size in tokens against hops, and how much of it is not the live facts
// themselves (provenance, headings, the bounded Completed list, git's report). With --show N it prints, for a chain of N hops,
// each live fact and whether it survived. Run after `npm run build`:
//
// The second table is the long story of bench/chain-story.js (natural wording, written
// before the mechanisms were tuned), one chain measured at each hop count of --story.
//
//   node bench/chain.js [--hops 2,4,5,20] [--show 4] [--story 10,20,30] [--bin <path>]
// (`--bin` runs another build's bin/handoff.js, to compare before and after a change)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { internals } from './internals.js';
import * as story from './chain-story.js';
import { benchEnv } from './env.js';

const [{ estimateTokens }] = await internals('transcripts/tokens.ts');

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    hops: { type: 'string', default: '2,4,5,20' },
    show: { type: 'string', default: '4' },
    story: { type: 'string', default: '10,20,30' },
    bin: { type: 'string' },
  },
});
const BIN = path.resolve(values.bin ?? path.join(here, '../bin/handoff.js'));
const env = benchEnv();

// Claude Code session lines (the 2.x envelope), just what the reader needs.
let uuid = 0;
const line = (cwd, type, message) =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: 'bench',
    version: '2.0.64',
    type,
    message,
    uuid: `u${++uuid}`,
    timestamp: '2026-11-20T10:00:00.000Z',
  });
const user = (cwd, text) => line(cwd, 'user', { role: 'user', content: text });
const say = (cwd, text) =>
  line(cwd, 'assistant', { id: `m${++uuid}`, role: 'assistant', model: 'm', content: [{ type: 'text', text }] });
const tool = (cwd, name, input, id) =>
  line(cwd, 'assistant', {
    id: `m${id}`,
    role: 'assistant',
    model: 'm',
    content: [{ type: 'tool_use', id, name, input }],
  });
const result = (cwd, id, isError) =>
  line(cwd, 'user', {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: isError ? 'failed' : 'ok', is_error: isError }],
  });

const CONSTRAINT = 'Never add new dependencies without asking.';
const decision = (i) => `We'll use engine${i} for stage ${i}, because it fits step ${i}.`;
const replacement = (i) => `We'll use turbo${i} instead of engine${i - 1}, because engine${i - 1} was too slow.`;
const replaces = (i) => i > 1 && i % 3 === 0; // hop i replaces the decision of hop i-1
const question = (i) => `Should step ${i} include archived invoices?`;
const asks = (i) => i % 5 === 2;
const fails = (i) => i % 4 === 1; // `npm run check-i` fails at hop i ...
const fixedAt = (i) => i + 2; // ... and passes at hop i+2
const task = (i) => `Build stage ${i} of the report`;

function session(cwd, i, steady) {
  // A steady chain plants its facts at hop 1 only; later sessions add chatter and commits.
  if (steady && i > 1) return `${[user(cwd, 'Keep going.'), say(cwd, 'Done, committing.')].join('\n')}\n`;
  const out = [
    user(
      cwd,
      i === 1 ? `Build the billing report. ${CONSTRAINT}` : i % 2 ? 'Keep going.' : 'Keep going, nearly there.',
    ),
  ];
  if (asks(i)) out.push(say(cwd, question(i)), user(cwd, 'Keep going.'));
  out.push(say(cwd, replaces(i) ? `${replacement(i)} ${decision(i)}` : decision(i)));
  const todos = [
    ...(i > 1 ? [{ content: task(i - 1), status: 'completed' }] : []),
    { content: task(i), status: 'in_progress' },
    { content: task(i + 1), status: 'pending' },
  ];
  out.push(tool(cwd, 'TodoWrite', { todos: todos.map((t) => ({ ...t, activeForm: t.content })) }, `todo${i}`));
  out.push(
    tool(cwd, 'Edit', { file_path: path.join(cwd, `src/stage${i}.ts`), old_string: 'a', new_string: 'b' }, `edit${i}`),
    result(cwd, `edit${i}`, false),
  );
  if (fails(i)) out.push(tool(cwd, 'Bash', { command: `npm run check-${i}` }, `bad${i}`), result(cwd, `bad${i}`, true));
  for (let k = 1; k < i; k++)
    if (fails(k) && fixedAt(k) === i)
      out.push(tool(cwd, 'Bash', { command: `npm run check-${k}` }, `good${k}`), result(cwd, `good${k}`, false));
  return `${out.join('\n')}\n`;
}

/** Items a section of the prompt lists twice (a fold line, "- … N earlier", is not an item). */
function duplicatesIn(prompt) {
  let duplicates = 0;
  for (const title of [
    'Completed',
    'In progress',
    'Next steps',
    'Open questions',
    'Decisions',
    'Tried and abandoned',
  ]) {
    const seen = new Set();
    for (const line of section(prompt, title).split('\n')) {
      if (!line.startsWith('- ') || line.startsWith('- …')) continue;
      const item = key(line.slice(2));
      if (seen.has(item)) duplicates++;
      seen.add(item);
    }
  }
  return duplicates;
}

function section(prompt, title) {
  const start = prompt.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = prompt.indexOf('\n## ', start + 4);
  return prompt.slice(start, end < 0 ? undefined : end);
}

const key = (item) =>
  item
    .replace(/\s+\((?:[^()]|\([^()]*\))*\)$/, '')
    .replace(/^D\d+: /, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

async function chain(hops, steady = false) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'handoff-chain-'));
  const repo = path.join(tmp, 'repo');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  const git = (...a) => execFileSync('git', a, { cwd: repo, env });
  const handoff = (...a) => {
    const r = spawnSync(process.execPath, [BIN, ...a], { cwd: repo, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`handoff ${a.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  handoff('init');
  git('checkout', '-q', '-b', 'report');
  for (let i = 1; i <= hops; i++) {
    writeFileSync(path.join(repo, `src/stage${steady ? 1 : i}.ts`), `export const stage${i} = ${i};\n`);
    const file = path.join(tmp, `session-${i}.jsonl`);
    writeFileSync(file, session(repo, i, steady));
    handoff('new', 'Billing report', '--from', file, '--no-edit');
    git('add', '-A');
    git('commit', '-q', '-m', `hop ${i}`);
  }
  const prompt = handoff('resume');
  rmSync(tmp, { recursive: true, force: true });

  // What must be there, verbatim, in the right place.
  const live = [[`constraint offered as a pin candidate`, section(prompt, 'Open questions'), `"${CONSTRAINT}"`]];
  for (let i = 1; i <= hops; i++) {
    const superseded = i + 1 <= hops && replaces(i + 1);
    if (!superseded) live.push([`decision of hop ${i}`, section(prompt, 'Decisions'), decision(i)]);
    if (replaces(i)) live.push([`replacing decision of hop ${i}`, section(prompt, 'Decisions'), replacement(i)]);
    if (asks(i)) live.push([`question of hop ${i}`, section(prompt, 'Open questions'), question(i)]);
    if (fails(i) && fixedAt(i) > hops)
      live.push([`failed check of hop ${i}`, section(prompt, 'Tried and abandoned'), `\`npm run check-${i}\` failed`]);
    // The files of the last hops are named; older ones are counted, with a pointer.
    if (i > hops - 3) live.push([`file of hop ${i}`, prompt, `\`src/stage${i}.ts\``]);
  }
  live.push(
    ['task in progress', section(prompt, 'In progress'), task(hops)],
    ['next step', section(prompt, 'Next steps'), task(hops + 1)],
  );
  const kept = live.filter(([, where, text]) => where.includes(text));

  // What must not be shown as current.
  const stale = [];
  for (let i = 1; i <= hops; i++) {
    if (i + 1 <= hops && replaces(i + 1) && prompt.includes(decision(i))) stale.push(`superseded decision of hop ${i}`);
    if (i < hops && (section(prompt, 'In progress') + section(prompt, 'Next steps')).includes(`${task(i)} (`))
      stale.push(`completed task ${i} shown as open`);
    if (fails(i) && fixedAt(i) <= hops && section(prompt, 'Tried and abandoned').includes(`check-${i}\``))
      stale.push(`fixed check of hop ${i} shown as abandoned`);
  }
  if (/Pin candidate[^\n]*Keep going/.test(prompt)) stale.push('chatter offered as a constraint');

  const duplicates = duplicatesIn(prompt);
  return {
    hops,
    live,
    kept,
    stale,
    duplicates,
    tokens: estimateTokens(prompt),
    liveTokens: estimateTokens(live.map((f) => f[2]).join('\n')),
  };
}

const show = Number(values.show);
const counts = [...new Set([...values.hops.split(',').map(Number), ...(show ? [show] : [])])].sort((a, b) => a - b);
console.log(
  'hops  live facts kept verbatim  stale shown as current  duplicates  prompt tokens  of which not the live facts',
);
const results = [];
for (const hops of counts) {
  const r = await chain(hops);
  results.push(r);
  console.log(
    `${String(hops).padStart(4)}  ${`${r.kept.length}/${r.live.length} (${Math.round((100 * r.kept.length) / r.live.length)}%)`.padEnd(26)}${String(r.stale.length).padEnd(24)}${String(r.duplicates).padEnd(12)}${String(r.tokens).padEnd(15)}${r.tokens - r.liveTokens}`,
  );
}
// The live state stops growing after hop 1: the prompt should stop growing too.
const steady = [];
for (const hops of counts) steady.push(`${hops} hops: ${(await chain(hops, true)).tokens}`);
console.log(`\nPrompt tokens when only hop 1 plants facts (later hops: chatter and a commit): ${steady.join(', ')}`);
for (const r of results) if (r.stale.length > 0) console.log(`stale at ${r.hops} hops: ${r.stale.join('; ')}`);
const shown = results.find((r) => r.hops === show);
if (shown) {
  console.log(`\nWhat survived ${show} hops:`);
  for (const fact of shown.live)
    console.log(`  ${shown.kept.includes(fact) ? 'kept' : 'LOST'}  ${fact[0]}: ${fact[2]}`);
}

// The long story: one chain, its resume prompt measured at each checkpoint.
async function storyChain(checkpoints) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'handoff-story-'));
  const repo = path.join(tmp, 'repo');
  mkdirSync(repo, { recursive: true });
  const git = (...a) => execFileSync('git', a, { cwd: repo, env });
  const handoff = (...a) => {
    const r = spawnSync(process.execPath, [BIN, ...a], { cwd: repo, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`handoff ${a.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  handoff('init');
  git('checkout', '-q', '-b', 'ratelimit');
  const rows = [];
  const unextracted = new Set();
  const last = Math.max(...checkpoints);
  for (let i = 1; i <= last; i++) {
    const f = path.join(repo, story.FILES[i - 1]);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, `// hop ${i}\n`);
    const file = path.join(tmp, `session-${i}.jsonl`);
    writeFileSync(file, story.storySession(repo, i, { user, say, tool, result }, path.join));
    const written = readFileSync(
      path.join(repo, handoff('new', story.STORY_GOAL, '--from', file, '--no-edit').trim()),
      'utf8',
    );
    // What the hop's own handoff took from its session: a fact missing there was never extracted.
    for (const text of [story.DECISIONS[i], story.QUESTIONS[i]])
      if (text && !written.includes(text)) unextracted.add(text);
    git('add', '-A');
    git('commit', '-q', '-m', story.task(i));
    if (checkpoints.includes(i)) rows.push({ ...(await measureStory(i, handoff('resume'))), unextracted });
  }
  rmSync(tmp, { recursive: true, force: true });
  return rows;
}

async function measureStory(n, prompt) {
  const decisions = section(prompt, 'Decisions');
  const live = [['constraint offered as a pin candidate', prompt, "Don't touch the auth module."]];
  const stale = [];
  for (const [h, text] of Object.entries(story.DECISIONS)) {
    if (Number(h) > n) continue;
    const by = story.REVERSED[h];
    if (by !== undefined && by <= n) {
      if (decisions.includes(text)) stale.push(`reversed decision of hop ${h}`);
    } else live.push([`decision of hop ${h}`, decisions, text]);
  }
  for (const [h, text] of Object.entries(story.QUESTIONS))
    if (Number(h) <= n) live.push([`question of hop ${h}`, section(prompt, 'Open questions'), text]);
  for (const [h, [q]] of Object.entries(story.ANSWERED))
    if (Number(h) <= n && prompt.includes(q)) stale.push(`answered question of hop ${h}`);
  for (const [h, command] of Object.entries(story.FAILS)) {
    if (Number(h) > n) continue;
    const fixed = story.FIXED[h] !== undefined && story.FIXED[h] <= n;
    const shown = section(prompt, 'Tried and abandoned').includes(`\`${command}\` failed`);
    if (!fixed)
      live.push([`failed check of hop ${h}`, section(prompt, 'Tried and abandoned'), `\`${command}\` failed`]);
    else if (shown) stale.push(`fixed check of hop ${h} shown as abandoned`);
  }
  for (let h = Math.max(1, n - 2); h <= n; h++) live.push([`file of hop ${h}`, prompt, `\`${story.FILES[h - 1]}\``]);
  live.push(
    ['task in progress', section(prompt, 'In progress'), story.task(n)],
    ['next step', section(prompt, 'Next steps'), story.task(n + 1)],
  );
  for (let h = 1; h < n; h++)
    if ((section(prompt, 'In progress') + section(prompt, 'Next steps')).includes(story.task(h)))
      stale.push(`completed task of hop ${h} shown as open`);
  const kept = live.filter(([, where, text]) => where.includes(text));
  // Completed: each finished todo counted once (the commit of a hop is named as its todo).
  const completed = section(prompt, 'Completed');
  const fold = /… (\d+) earlier/.exec(completed);
  const claimed = completed.split('\n').filter((l) => l.startsWith('- ') && !l.startsWith('- …')).length;
  const duplicates = duplicatesIn(prompt);
  return {
    n,
    live,
    kept,
    stale,
    duplicates,
    completed: `${claimed + (fold ? Number(fold[1]) : 0)} of ${n - 1}`,
    tokens: estimateTokens(prompt),
  };
}

console.log(`\nThe long story (${story.STORY_GOAL.toLowerCase()}; natural wording, bench/chain-story.js), one chain:`);
console.log('hops  live facts kept  stale shown as current  duplicates  completed counted  prompt tokens');
const storyRows = await storyChain(values.story.split(',').map(Number));
for (const r of storyRows)
  console.log(
    `${String(r.n).padStart(4)}  ${`${r.kept.length}/${r.live.length}`.padEnd(16)}${String(r.stale.length).padEnd(24)}${String(r.duplicates).padEnd(12)}${r.completed.padEnd(19)}${r.tokens}`,
  );
for (const r of storyRows) {
  const lost = r.live.filter((f) => !r.kept.includes(f));
  const inChain = lost.filter((f) => !r.unextracted.has(f[2])).map((f) => f[0]);
  const never = lost.filter((f) => r.unextracted.has(f[2])).map((f) => f[0]);
  if (inChain.length > 0) console.log(`lost in the chain at ${r.n}: ${inChain.join('; ')}`);
  if (never.length > 0)
    console.log(`never extracted from its session (sentence classifier), at ${r.n}: ${never.join('; ')}`);
  if (r.stale.length > 0) console.log(`stale at ${r.n}: ${r.stale.join('; ')}`);
}
