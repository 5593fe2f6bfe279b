// The agent's own compaction summary, harvested: the compaction hook writes the handoff
// from the rules and records that a summary is due; the agent writes its summary after
// the hook; the next hook (the session start after the compaction) folds it into that same
// handoff. Transcripts are the crafted fixtures of test/fixtures/summaries/ (README.md
// there: each in the record shape the agent's release writes), with the repository's path
// put where the agent records its working directory.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type Repo } from './helpers.js';
import { NEEDS_SQLITE, sqlite } from './sqlite.js';

const FIXTURES = path.resolve(__dirname, 'fixtures/summaries');
const PLACE = '/home/user/project';

interface Agent {
  fixture: string;
  pre: string;
  start: string;
  session: string;
  /** Whether a record is the compaction's (written after the pre-compact hook). */
  compaction: (rec: Record<string, unknown>) => boolean;
}

const AGENTS: Record<string, Agent> = {
  claude: {
    fixture: 'claude-code-2.1.330-compact.jsonl',
    pre: 'claude-pre-compact',
    start: 'claude-session-start',
    session: 'cc-sess-1',
    compaction: (r) => r.subtype === 'compact_boundary',
  },
  codex: {
    fixture: 'codex-0.169.0-compact.jsonl',
    pre: 'codex-pre-compact',
    start: 'codex-session-start',
    session: 'codex-sess-1',
    compaction: (r) => r.type === 'compacted',
  },
  pi: {
    fixture: 'pi-0.73.1-compact.jsonl',
    pre: 'pi-pre-compact',
    start: 'pi-session-start',
    session: 'pi-sess-1',
    compaction: (r) => r.type === 'compaction',
  },
  gemini: {
    fixture: 'gemini-0.61.0-compact.jsonl',
    pre: 'gemini-pre-compress',
    start: 'gemini-session-start',
    session: 'gem-sess-1',
    compaction: (r) => '$set' in r,
  },
};

/** The fixture's lines for this repository, split where the compaction's records begin. */
function transcriptLines(repo: Repo, fixture: string, compaction: Agent['compaction'], summary?: string) {
  const lines = readFileSync(path.join(FIXTURES, fixture), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(JSON.stringify(PLACE).slice(1, -1)).join(JSON.stringify(repo.dir).slice(1, -1)));
  const at = lines.findIndex((l) => compaction(JSON.parse(l)));
  const after = lines.slice(at);
  if (summary !== undefined) {
    // The same records with another summary text, for the checks below.
    const last = JSON.parse(after.at(-1)!);
    last.message.content = `This session is being continued from a previous conversation.\n\nSummary:\n${summary}`;
    after[after.length - 1] = JSON.stringify(last);
  }
  return { before: lines.slice(0, at), after };
}

function setup(pin = 'Never touch src/auth/session.ts.') {
  const repo = makeRepo();
  repo.commit('teams model', { 'src/teams.ts': 'export const teams = new Map();\n', 'src/list.ts': '\n' });
  repo.handoff(['init']);
  expect(repo.handoff(['pin', pin]).code).toBe(0);
  repo.handoff(['new', 'build the teams page', '--no-edit']);
  return repo;
}

/** The pre-compact hook on the transcript as it stands, then the compaction's records, then a session start. */
function compact(repo: Repo, agent: Agent, summary?: string) {
  const file = path.join(tempDir(), 'session.jsonl');
  const { before, after } = transcriptLines(repo, agent.fixture, agent.compaction, summary);
  writeFileSync(file, `${before.join('\n')}\n`);
  const base = { session_id: agent.session, transcript_path: file, cwd: repo.dir };
  const pre = repo.handoff(['hook', agent.pre], {
    input: JSON.stringify({ ...base, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '' }),
  });
  expect(pre.code).toBe(0);
  const [made] = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs;
  const drafted = repo.read(made.file);
  writeFileSync(file, `${[...before, ...after].join('\n')}\n`);
  const start = repo.handoff(['hook', agent.start], {
    input: JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'compact' }),
  });
  expect(start.code).toBe(0);
  return { pre, start, file: made.file as string, drafted, body: repo.read(made.file) };
}

const section = (body: string, title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

describe('the agent summary, harvested into the compaction handoff', () => {
  it('Claude Code: the summarizer is asked for the sections, and the session start folds them in', () => {
    const repo = setup();
    const r = compact(repo, AGENTS.claude!);
    // The summarizer's instructions: one heading per section, pins word for word.
    expect(r.pre.stdout).toContain('## Decisions');
    expect(r.pre.stdout).toContain('## Tried and abandoned');
    expect(r.pre.stdout).toContain('- Never touch src/auth/session.ts.');
    expect(r.drafted).not.toContain('summary of Claude Code');
    expect(r.start.stderr).toContain(`handoff: folded Claude Code's summary of session cc-sess-1 into ${r.file}`);
    const prov = '(summary of Claude Code session cc-sess-1)';
    expect(section(r.body, 'Decisions')).toContain(
      `Keep teams in a Map keyed by team id — why: lookups by id dominate the page ${prov}`,
    );
    expect(section(r.body, 'Tried and abandoned')).toContain(
      'Fetching members per team on scroll — why: the user turned it down, the API returns every member in one call',
    );
    expect(section(r.body, 'Open questions')).toContain(`Should archived teams be listed? ${prov}`);
    expect(section(r.body, 'In progress')).toContain('Wiring `src/teams.ts` into the router');
    expect(section(r.body, 'Goal')).toContain(
      '"a page listing every team with its members; members come from the existing API"',
    );
    expect(section(r.body, 'References')).toContain("Claude Code's summary of session cc-sess-1 was folded in");
    // Claude Code's own numbered form is there too; ours wins for the goal.
    expect(section(r.body, 'Goal')).not.toContain('The user asked for a teams page');
    // The session start that folded it passes the folded handoff on.
    const context = JSON.parse(r.start.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('Fetching members per team on scroll');
    expect(context).toContain('Keep teams in a Map keyed by team id');
    // One handoff for the compaction: amended, not a second one.
    expect(JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs).toHaveLength(1);
    // Done once: the next session start folds nothing again.
    const again = repo.handoff(['hook', AGENTS.claude!.start], { input: '{"source":"startup"}' });
    expect(again.stderr).not.toContain('folded');
    expect(repo.read(r.file)).toBe(r.body);
    // The amended handoff is a valid one, and the next handoff of the chain carries what the summary gave.
    expect(repo.handoff(['check']).code).toBe(0);
    const next = repo.read(repo.handoff(['new', 'test the teams page', '--no-edit']).stdout.trim());
    expect(section(next, 'Tried and abandoned')).toContain('Fetching members per team on scroll — why:');
    expect(section(next, 'Decisions')).toContain('Keep teams in a Map keyed by team id — why:');
    expect(section(next, 'Open questions')).toContain('Should archived teams be listed?');
  });

  it('flags a path git does not know, and a summary never changes a pin', () => {
    const repo = setup();
    const r = compact(repo, AGENTS.claude!);
    expect(section(r.body, 'Next steps')).toContain(
      'Document the page in `docs/teams-page.md` **[unverified: `docs/teams-page.md` is not a file git knows]**',
    );
    expect(section(r.body, 'Next steps')).toMatch(/Write tests for `src\/teams\.ts` \(summary of/);
    expect(r.start.stderr).toContain('1 path git does not know flagged');
    // The summary's "pinned constraints" say the pin was lifted: neither the pin nor the handoff say so.
    expect(r.body).not.toContain('may be edited now');
    const pins = JSON.parse(repo.handoff(['pins', '--json']).stdout).pins;
    expect(pins.map((p: { text: string }) => p.text.trim())).toEqual(['Never touch src/auth/session.ts.']);
    expect(repo.handoff(['resume']).stdout).toContain('Never touch src/auth/session.ts.');
  });

  it('redacts a secret the summary repeats', () => {
    const repo = setup();
    const key = ['AKIA', 'QX7RZ3M4', 'LB2KV6WN'].join('');
    const r = compact(
      repo,
      AGENTS.claude!,
      `## Decisions\n- Use the staging account ${key} for the members API — why: it has test data\n`,
    );
    expect(r.body).not.toContain(key);
    expect(section(r.body, 'Decisions')).toContain('Use the staging account [REDACTED');
    expect(r.start.stderr).toContain('redacted');
  });

  it('a summary without the sections falls back to the rules, with one warning line', () => {
    const repo = setup();
    const r = compact(repo, AGENTS.claude!, 'We did a lot of things and then some more; it went well overall.\n');
    const warnings = r.start.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toEqual([
      `handoff: warning: Claude Code's summary of session cc-sess-1 has none of the handoff's sections (## Goal, ## Decisions, ...) and no decision, abandoned approach or open question in its prose; ${r.file} keeps the draft from the rules`,
    ]);
    expect(r.body).toBe(r.drafted);
  });

  it('a summary that never comes is looked for ten times, then given up with one warning line', () => {
    const repo = setup();
    const file = path.join(tempDir(), 'session.jsonl');
    const agent = AGENTS.claude!;
    writeFileSync(file, `${transcriptLines(repo, agent.fixture, agent.compaction).before.join('\n')}\n`);
    const input = (event: string) =>
      JSON.stringify({ session_id: agent.session, transcript_path: file, cwd: repo.dir, hook_event_name: event });
    expect(repo.handoff(['hook', agent.pre], { input: input('PreCompact') }).code).toBe(0);
    const due = path.join(repo.dir, '.git', 'handoff-harvest.json');
    expect(existsSync(due)).toBe(true);
    const warnings: string[] = [];
    for (let i = 0; i < 10; i++) {
      const start = repo.handoff(['hook', agent.start], { input: input('SessionStart') });
      warnings.push(...start.stderr.split('\n').filter((l) => l.includes('warning')));
    }
    expect(warnings).toEqual([
      expect.stringMatching(
        /^handoff: warning: Claude Code wrote no summary for \.handoff\/handoffs\/\d{4}-\d\d\/\d\d\/\w+\.md; it keeps the draft from the rules$/,
      ),
    ]);
    expect(existsSync(due)).toBe(false);
  });

  it('Codex CLI: the compacted record, in the form a compact_prompt asks for', () => {
    const repo = setup();
    const r = compact(repo, AGENTS.codex!);
    expect(r.start.stderr).toContain("folded Codex CLI's summary of session codex-sess-1");
    expect(section(r.body, 'Tried and abandoned')).toContain('Fetching members per team on scroll — why:');
    expect(section(r.body, 'Decisions')).toContain('(summary of Codex CLI session codex-sess-1)');
  });

  it("pi: the compaction entry, in pi's own form", () => {
    const repo = setup();
    const r = compact(repo, AGENTS.pi!);
    expect(r.start.stderr).toContain("folded pi's summary of session pi-sess-1");
    const prov = '(summary of pi session pi-sess-1)';
    expect(section(r.body, 'Decisions')).toContain(`**Map keyed by team id**: lookups by id dominate ${prov}`);
    expect(section(r.body, 'Completed')).toContain(`Teams model in \`src/teams.ts\` ${prov}`);
    expect(section(r.body, 'In progress')).toContain(`Router wiring ${prov}`);
    expect(section(r.body, 'Open questions')).toContain('Whether archived teams are listed is undecided');
    expect(section(r.body, 'Next steps')).toContain(`Write tests for \`src/teams.ts\` ${prov}`);
  });

  it("Gemini CLI: the state snapshot of a compression, in Gemini's own form", () => {
    const repo = setup();
    const r = compact(repo, AGENTS.gemini!);
    expect(r.start.stderr).toContain("folded Gemini CLI's summary of session gem-sess-1");
    const prov = '(summary of Gemini CLI session gem-sess-1)';
    expect(section(r.body, 'Goal')).toContain('Build the teams page listing every team with its members.');
    expect(section(r.body, 'Completed')).toContain(`Write the teams model. ${prov}`);
    expect(section(r.body, 'In progress')).toContain(`Wire the page into the router. ${prov}`);
    expect(section(r.body, 'Next steps')).toContain(`Write tests for \`src/teams.ts\`. ${prov}`);
  });

  it("OpenCode: the compaction agent's summary part", (ctx) => {
    ctx.skip(!sqlite, NEEDS_SQLITE);
    const repo = setup();
    const db = path.join(tempDir(), 'opencode.db');
    const steered = readFileSync(path.join(FIXTURES, 'opencode-summary.md'), 'utf8');
    const d = new sqlite!.DatabaseSync(db);
    d.exec(
      'CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, directory TEXT, title TEXT, time_created INTEGER, time_updated INTEGER)',
    );
    d.exec('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, data TEXT)');
    d.exec(
      'CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, data TEXT)',
    );
    const run = (sql: string, values: Array<string | number>) => d.prepare(sql).run(...values);
    run('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?)', ['ses_1', 'p', repo.dir, 't', 1763600000000, 1763600500000]);
    run('INSERT INTO message VALUES (?, ?, ?, ?)', ['msg_1', 'ses_1', 1, JSON.stringify({ role: 'user' })]);
    run('INSERT INTO part VALUES (?, ?, ?, ?, ?)', [
      'prt_1',
      'msg_1',
      'ses_1',
      1,
      JSON.stringify({ type: 'text', text: 'Build the teams page.' }),
    ]);
    const input = (event: string) =>
      JSON.stringify({ session_id: 'ses_1', transcript_path: db, cwd: repo.dir, hook_event_name: event });
    expect(repo.handoff(['hook', 'opencode-pre-compact'], { input: input('PreCompact') }).code).toBe(0);
    // OpenCode then records the compaction and its agent's answer (mode compaction, summary: true).
    run('INSERT INTO message VALUES (?, ?, ?, ?)', ['msg_2', 'ses_1', 2, JSON.stringify({ role: 'user' })]);
    run('INSERT INTO part VALUES (?, ?, ?, ?, ?)', [
      'prt_2',
      'msg_2',
      'ses_1',
      2,
      JSON.stringify({ type: 'compaction', auto: true }),
    ]);
    run('INSERT INTO message VALUES (?, ?, ?, ?)', [
      'msg_3',
      'ses_1',
      3,
      JSON.stringify({ role: 'assistant', mode: 'compaction', agent: 'compaction', summary: true }),
    ]);
    run('INSERT INTO part VALUES (?, ?, ?, ?, ?)', [
      'prt_3',
      'msg_3',
      'ses_1',
      3,
      JSON.stringify({ type: 'text', text: steered, summary: true }),
    ]);
    d.close();
    const start = repo.handoff(['hook', 'opencode-session-start'], { input: input('SessionStart') });
    expect(start.stderr).toContain("folded OpenCode's summary of session ses_1");
    const [made] = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs;
    const body = repo.read(made.file);
    expect(section(body, 'Tried and abandoned')).toContain(
      'Fetching members per team on scroll — why: the user turned it down (summary of OpenCode session ses_1)',
    );
  });
});
