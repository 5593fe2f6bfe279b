#!/usr/bin/env node
// @ts-check
// A three-agent chain through our own integration: Claude Code, then Codex CLI, then
// Gemini CLI, each session compacted once (its pre-compact hook writes the handoff, the
// agent records its summary, the next session start harvests it). Each session plants
// facts a next session needs: the user's request, a decision with its reason, an approach
// abandoned with its reason, an open question, what comes next. It reports which of them
// the last resume prompt still holds, with the agents' summaries harvested and without
// them (the rules alone, as when no summary is written), and the prompt's size in tokens.
// The sessions are synthetic, in each agent's record shape (test/fixtures/summaries/
// README.md); Claude Code's summary uses the form our hook asks for, Codex's the form a
// `compact_prompt` would ask for, Gemini's its own `<state_snapshot>`; a third run gives
// Codex the summary it writes unasked, in prose (read through the sentence classifier).
// Run after `npm run build` (`--bin` runs another build's bin/handoff.js):
//
//   node bench/harvest-chain.js [--show] [--bin <path>]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { internals } from './internals.js';
import { benchEnv } from './env.js';

const [{ estimateTokens }] = await internals('transcripts/tokens.ts');
const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { show: { type: 'boolean', default: false }, bin: { type: 'string' } },
});
const BIN = path.resolve(values.bin ?? path.join(here, '../bin/handoff.js'));
const env = benchEnv();

/** Facts, each a phrase the last resume prompt must hold, by the session that planted it. */
const FACTS = [
  ['claude', "the user's request", 'Export every invoice as CSV with its line items'],
  ['claude', 'a decision', 'Stream rows with a cursor'],
  ['claude', "the decision's reason", 'exports reach a million rows'],
  ['claude', 'an abandoned approach', 'Building the whole file in memory'],
  ['claude', "the approach's reason", 'it ran out of memory on the large tenant'],
  ['codex', 'a decision', 'Quote every field'],
  ['codex', "the decision's reason", 'descriptions hold commas'],
  ['codex', 'an abandoned approach', 'A tab-separated file'],
  ['codex', "the approach's reason", 'the user turned it down'],
  ['codex', 'an open question', 'Should archived invoices be exported?'],
  ['gemini', 'the next step', 'Add the download button'],
];

const SUMMARIES = {
  claude: `## Goal
- The user's request: "Export every invoice as CSV with its line items"

## Decisions
- Stream rows with a cursor — why: exports reach a million rows

## Tried and abandoned
- Building the whole file in memory — why: it ran out of memory on the large tenant

## Next steps
- Write the CSV writer`,
  codex: `## Decisions
- Quote every field — why: descriptions hold commas

## Tried and abandoned
- A tab-separated file — why: the user turned it down

## Open questions
- Should archived invoices be exported?

## Next steps
- Wire the endpoint`,
  // What Codex CLI writes with no compact_prompt: a handoff summary in its own words.
  codexProse: `The endpoint writes CSV now. I decided to quote every field, because descriptions hold commas. A tab-separated file was tried first, but the user turned it down, so I dropped it. It is still open: should archived invoices be exported? Next, wire the endpoint.`,
  gemini: `<state_snapshot>
    <overall_goal>
        Export invoices as CSV.
    </overall_goal>
    <current_plan>
        1. [DONE] Write the CSV writer.
        2. [TODO] Add the download button.
    </current_plan>
</state_snapshot>`,
};

/** What each session's user and agent said: the rules read this when no summary is harvested. */
const TALK = {
  claude: [
    'Export every invoice as CSV with its line items. Never change the invoice schema.',
    'I will stream rows with a cursor because exports reach a million rows.',
  ],
  codex: ['Go on with the endpoint.', 'I will quote every field, since descriptions hold commas.'],
  gemini: ['Continue.', 'The writer is done; next I add the download button.'],
};

function records(agent, cwd, summary) {
  const [userText, reply] = TALK[agent];
  const at = (s) => `2026-11-23T08:00:${String(s).padStart(2, '0')}.000Z`;
  if (agent === 'claude') {
    const base = (n, type, extra) => ({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId: 'cc-1',
      version: '2.1.330',
      type,
      uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      timestamp: at(n),
      ...extra,
    });
    return {
      before: [
        base(1, 'user', { message: { role: 'user', content: userText } }),
        base(2, 'assistant', {
          message: { id: 'm', model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: reply }] },
        }),
      ],
      after: summary
        ? [
            base(3, 'system', { subtype: 'compact_boundary', compactMetadata: { trigger: 'auto', preTokens: 1 } }),
            base(4, 'user', {
              isCompactSummary: true,
              message: { role: 'user', content: `This session is being continued.\n\nSummary:\n${summary}` },
            }),
          ]
        : [],
    };
  }
  if (agent === 'codex') {
    const r = (s, type, payload) => ({ timestamp: at(s), type, payload });
    return {
      before: [
        r(0, 'session_meta', { id: 'codex-1', cwd, cli_version: '0.169.0' }),
        r(1, 'event_msg', { type: 'user_message', message: userText }),
        r(2, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: reply }] }),
      ],
      after: summary ? [r(3, 'compacted', { message: `Another language model produced a summary:\n${summary}` })] : [],
    };
  }
  return {
    before: [
      { sessionId: 'gem-1', projectHash: '0', startTime: at(0), lastUpdated: at(0), kind: 'main' },
      { id: 'g1', timestamp: at(1), type: 'user', content: [{ text: userText }] },
      { id: 'g2', timestamp: at(2), type: 'gemini', content: reply },
    ],
    after: summary
      ? [
          {
            $set: {
              messages: [
                { id: 'g3', timestamp: at(3), type: 'user', content: [{ text: summary }] },
                { id: 'g4', timestamp: at(3), type: 'gemini', content: 'Got it. Thanks for the additional context!' },
              ],
            },
          },
        ]
      : [],
  };
}

const HOOKS = {
  claude: ['claude-pre-compact', 'claude-session-start', 'cc-1'],
  codex: ['codex-pre-compact', 'codex-session-start', 'codex-1'],
  gemini: ['gemini-pre-compress', 'gemini-session-start', 'gem-1'],
};

/** harvest: no summary (false), summaries in a form (true), or Codex's in prose ('prose'). */
function chain(harvest) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-harvest-chain-'));
  const repo = path.join(dir, 'repo');
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env, encoding: 'utf8' });
  const handoff = (args, input = '') =>
    spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, input, encoding: 'utf8' });
  try {
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
    writeFileSync(path.join(repo, 'README.md'), '# invoices\n');
    git('add', '-A');
    git('commit', '-qm', 'initial');
    // The chain starts at the first compaction, as an agent's does: no handoff before it.
    handoff(['init']);
    for (const agent of ['claude', 'codex', 'gemini']) {
      const [pre, start, session] = HOOKS[agent];
      const file = path.join(dir, `${agent}.jsonl`);
      const summary = harvest === 'prose' && agent === 'codex' ? SUMMARIES.codexProse : SUMMARIES[agent];
      const { before, after } = records(agent, repo, harvest ? summary : undefined);
      const jsonl = (rs) => rs.map((r) => JSON.stringify(r)).join('\n');
      writeFileSync(file, `${jsonl(before)}\n`);
      const input = { session_id: session, transcript_path: file, cwd: repo };
      handoff(['hook', pre], JSON.stringify({ ...input, hook_event_name: 'PreCompact', trigger: 'manual' }));
      writeFileSync(file, `${jsonl([...before, ...after])}\n`);
      handoff(['hook', start], JSON.stringify({ ...input, hook_event_name: 'SessionStart', source: 'compact' }));
      git('add', '-A');
      git('commit', '-qm', `${agent} session`);
    }
    return handoff(['resume']).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fold = (t) => t.toLowerCase().replace(/\s+/g, ' ');
console.log('three-agent chain (Claude Code -> Codex CLI -> Gemini CLI), facts in the last resume prompt:');
/** @type {Array<[boolean | 'prose', string]>} */
const RUNS = [
  [false, 'rules alone                      '],
  [true, 'summaries harvested              '],
  ['prose', "summaries harvested, Codex's prose"],
];
for (const [harvest, label] of RUNS) {
  const prompt = chain(harvest);
  const kept = FACTS.filter(([, , phrase]) => fold(prompt).includes(fold(phrase)));
  console.log(`  ${label}: ${kept.length} of ${FACTS.length} kept; prompt ${estimateTokens(prompt)} tokens`);
  if (values.show)
    for (const [agent, what, phrase] of FACTS)
      console.log(`    ${kept.some((k) => k[2] === phrase) ? 'kept' : 'LOST'}  ${agent}: ${what}: ${phrase}`);
}
