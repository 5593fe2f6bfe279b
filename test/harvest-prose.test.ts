// A summary not in our form still counts: its prose goes through the transcripts' sentence
// classifier, and the decisions, abandoned approaches and open questions it states are
// folded with the summary's provenance, for the sections the summary did not write. Codex
// CLI's own summary (no compact_prompt) is crafted in the fixture of
// test/fixtures/summaries/; Copilot CLI's session is the one its release recorded
// (test/fixtures/transcripts/RECORDED.md), with its summary once as the scripted model
// wrote it and once in the form Copilot's summarizer asks for.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSummary } from '../src/handoff/summary-form.js';
import { proseItems } from '../src/handoff/summary-prose.js';
import { restates } from '../src/handoff/summary-fold.js';
import { itemKey } from '../src/store/items.js';
import { makeRepo, tempDir, TRANSCRIPTS, type Repo } from './helpers.js';

const SUMMARIES = path.resolve(__dirname, 'fixtures/summaries');
const PLACE = '/home/user/project';

const section = (body: string, title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

function setup(): Repo {
  const repo = makeRepo();
  repo.commit('teams model', { 'src/teams.ts': 'export const teams = new Map();\n', 'src/list.ts': '\n' });
  repo.handoff(['init']);
  expect(repo.handoff(['pin', 'Never touch src/auth/session.ts.']).code).toBe(0);
  repo.handoff(['new', 'build the teams page', '--no-edit']);
  return repo;
}

/** The pre-compact hook on the session up to the compaction, then the whole session and a session start. */
function compact(
  repo: Repo,
  lines: { before: string[]; after: string[] },
  hooks: { pre: string; start: string },
  input: Record<string, string>,
) {
  const file = path.join(tempDir(), 'session.jsonl');
  writeFileSync(file, `${lines.before.join('\n')}\n`);
  const pre = repo.handoff(['hook', hooks.pre], { input: JSON.stringify({ ...input, transcriptPath: file }) });
  expect(pre.code, pre.stderr).toBe(0);
  const [made] = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs;
  const drafted = repo.read(made.file);
  writeFileSync(file, `${[...lines.before, ...lines.after].join('\n')}\n`);
  const start = repo.handoff(['hook', hooks.start], {
    input: JSON.stringify({ ...input, transcript_path: file, transcriptPath: file, source: 'compact' }),
  });
  expect(start.code, start.stderr).toBe(0);
  return { start, file: made.file as string, drafted, body: repo.read(made.file) };
}

/** Copilot CLI's recorded session for this repository, split where its compaction begins, its summary replaced if given. */
function copilotLines(repo: Repo, summary?: string) {
  const all = readFileSync(path.join(TRANSCRIPTS, 'copilot/copilot-1.0.102-sum.events.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(PLACE).join(repo.dir));
  const at = all.findIndex((l) => JSON.parse(l).type === 'session.compaction_start');
  const end = all.findIndex((l) => JSON.parse(l).type === 'session.compaction_complete');
  const after = all.slice(at, end + 1).map((l) => {
    const r = JSON.parse(l);
    if (summary !== undefined && r.type === 'session.compaction_complete') r.data.summaryContent = summary;
    return JSON.stringify(r);
  });
  return { before: all.slice(0, at), after };
}

const COPILOT = { pre: 'copilot-pre-compact', start: 'copilot-session-start' };

describe('a summary in prose, read through the sentence classifier', () => {
  it("Codex CLI's own summary, no section of ours in it: its decision, abandoned approach and open question are folded", () => {
    const repo = setup();
    const records = readFileSync(path.join(SUMMARIES, 'codex-0.169.0-compact.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split(PLACE).join(repo.dir));
    const at = records.findIndex((l) => JSON.parse(l).type === 'compacted');
    const compacted = JSON.parse(records[at]!);
    const prose = readFileSync(path.join(SUMMARIES, 'codex-0.169.0-prose.md'), 'utf8');
    compacted.payload.message = `${compacted.payload.message.split('\n')[0]}\n${prose}`;
    const r = compact(
      repo,
      { before: records.slice(0, at), after: [JSON.stringify(compacted)] },
      { pre: 'codex-pre-compact', start: 'codex-session-start' },
      { session_id: 'codex-sess-1', cwd: repo.dir, hook_event_name: 'PreCompact', trigger: 'auto' },
    );
    expect(r.start.stderr).toContain(
      `handoff: folded Codex CLI's summary of session codex-sess-1 into ${r.file} (4 items; read from its prose: it has none of the handoff's sections)`,
    );
    expect(r.start.stderr).not.toContain('warning');
    const prov = '(summary of Codex CLI session codex-sess-1)';
    expect(section(r.body, 'Decisions')).toContain(
      `We decided to keep teams in a Map keyed by team id, because lookups by id dominate the page. ${prov}`,
    );
    // A way of doing with its reason is a decision by the corpus's rubric (sentence-corpus.md), but
    // this one reads like a description of the code ("the existing ... since it already ..."), and
    // since the sixth batch's near misses of that kind the model's lead on it is under the floor:
    // a decision left out costs less than a wrong one, so it is not folded.
    expect(section(r.body, 'Decisions')).not.toContain('Members are rendered with the existing');
    expect(section(r.body, 'Tried and abandoned')).toContain(
      `Fetching members per team on scroll did not work out: the API returns every member in one call, so I dropped that approach. ${prov}`,
    );
    expect(section(r.body, 'Tried and abandoned')).toContain(
      `Sorting members on the server was tried too and abandoned because the endpoint ignores the sort parameter. ${prov}`,
    );
    expect(section(r.body, 'Open questions')).toContain(
      `It is still unclear whether archived teams should be listed; the user has not said. ${prov}`,
    );
    // What the rules drafted stays.
    for (const title of ['Goal', 'Current state'])
      expect(section(r.body, title)).toContain(section(r.drafted, title).trim());
  });

  it('a decision the handoff carries, retold in the prose of a later summary, is not folded twice', () => {
    const repo = setup();
    const carried = repo.handoff(['new', 'wire the teams page', '--no-edit', '--sections', '-'], {
      input: '## Decisions\n- Keep teams in a Map keyed by team id — why: lookups by id dominate the page\n',
    });
    expect(carried.code, carried.stderr).toBe(0);
    const records = readFileSync(path.join(SUMMARIES, 'codex-0.169.0-compact.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split(PLACE).join(repo.dir));
    const at = records.findIndex((l) => JSON.parse(l).type === 'compacted');
    const compacted = JSON.parse(records[at]!);
    const prose = readFileSync(path.join(SUMMARIES, 'codex-0.169.0-prose.md'), 'utf8');
    compacted.payload.message = `${compacted.payload.message.split('\n')[0]}\n${prose}`;
    const r = compact(
      repo,
      { before: records.slice(0, at), after: [JSON.stringify(compacted)] },
      { pre: 'codex-pre-compact', start: 'codex-session-start' },
      { session_id: 'codex-sess-1', cwd: repo.dir, hook_event_name: 'PreCompact', trigger: 'auto' },
    );
    expect(r.start.stderr).toContain('(3 items; read from its prose: it has none of the handoff');
    expect(r.start.stderr).toContain('1 item the handoff already holds in other words left out');
    const decisions = section(r.body, 'Decisions');
    expect(decisions).toContain('Keep teams in a Map keyed by team id — why: lookups by id dominate the page');
    expect(decisions).not.toContain('We decided to keep teams in a Map');
  });

  it("Copilot CLI's summary in its summarizer's own form: next steps from its tag, the rest from its prose", () => {
    const repo = setup();
    const summary = readFileSync(path.join(SUMMARIES, 'copilot-1.0.102-summary.md'), 'utf8');
    const input = { sessionId: '04f491bb', cwd: repo.dir, trigger: 'manual', customInstructions: '' };
    const r = compact(repo, copilotLines(repo, summary), COPILOT, input);
    expect(r.start.stderr).toContain(
      `handoff: folded Copilot CLI's summary of session 04f491bb into ${r.file} (5 items; 3 read from its prose)`,
    );
    const prov = '(summary of Copilot CLI session 04f491bb)';
    expect(section(r.body, 'Next steps')).toContain(`Wire \`src/teams.ts\` into the router. ${prov}`);
    expect(section(r.body, 'Next steps')).toContain(`Write tests for \`src/teams.ts\`. ${prov}`);
    expect(section(r.body, 'Decisions')).toContain(
      `I went with a Map keyed by team id for the teams model, since lookups by id dominate the page. ${prov}`,
    );
    expect(section(r.body, 'Tried and abandoned')).toContain(
      `Paging members on scroll failed against the API, which returns every member in one call, so I gave up on it. ${prov}`,
    );
    expect(section(r.body, 'Open questions')).toContain(`Should archived teams be listed? ${prov}`);
  });

  it("Copilot CLI's recorded summary, with nothing in it to fold: the rules' handoff stays, with one warning line", () => {
    const repo = setup();
    const input = { sessionId: '04f491bb', cwd: repo.dir, trigger: 'manual', customInstructions: '' };
    const r = compact(repo, copilotLines(repo), COPILOT, input);
    expect(r.start.stderr.split('\n').filter((l) => l.includes('warning'))).toEqual([
      `handoff: warning: Copilot CLI's summary of session 04f491bb has none of the handoff's sections (## Goal, ## Decisions, ...) and no decision, abandoned approach or open question in its prose; ${r.file} keeps the draft from the rules`,
    ]);
    expect(r.body).toBe(r.drafted);
  });

  it('a section the summary wrote is its own word: prose fills only the sections it left out', () => {
    const parsed = parseSummary(
      [
        'We decided to keep teams in a Map, because lookups by id dominate.',
        'Paging on scroll did not work, so I dropped it.',
        '',
        '## Decisions',
        '- none',
        '',
        '## Problem solving',
        'Should archived teams be listed?',
        '',
        '## Pinned constraints',
        '- Should the auth module be touched? Never.',
      ].join('\n'),
    );
    expect(parsed.present).toEqual(['decisions']);
    expect(proseItems(parsed)).toEqual({
      sections: {
        tried: ['Paging on scroll did not work, so I dropped it.'],
        open_questions: ['Should archived teams be listed?'],
      },
      items: 2,
    });
  });

  it('an item retold in other words is not folded twice; a changed one is', () => {
    const words = (t: string) => new Set(itemKey(t).split(' ').filter(Boolean));
    const same = (a: string, b: string) =>
      restates(
        new Set([...words(a)].filter((w) => !['the', 'we', 'because', 'why', 'from', 'it', 'there'].includes(w))),
        new Set([...words(b)].filter((w) => !['the', 'we', 'because', 'why', 'from', 'it', 'there'].includes(w))),
      );
    expect(
      same(
        'Export sum from `src/sum.js` — why: the tests import it from there',
        'We decided to export sum from src/sum.js, because the tests import it from there.',
      ),
    ).toBe(true);
    // A swapped word may be a reversal; a word of change makes it one; short items are compared whole.
    expect(same('Keep teams in a Map keyed by id', 'Keep teams in a Set keyed by id')).toBe(false);
    expect(same('Keep teams in a Map keyed by id', 'Do not keep teams in a Map keyed by id')).toBe(false);
    expect(same('Use a Map', 'We use a Map for it')).toBe(false);
  });
});
