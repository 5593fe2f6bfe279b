// The transcripts pi 1.5, Copilot CLI, Cline, Kilo and Qwen Code wrote in `npm run
// test:agents` (test/fixtures/transcripts/RECORDED.md says how), read with no agent
// installed: the format is detected from the content, every record is known, the draft
// carries the file written, the test run and the user's constraint, and where the agent
// compacted, its own summary arrives on the compaction event.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../src/transcripts/events.js';
import { openTranscript } from '../src/transcripts/open.js';
import { openCodeDbSessions } from '../src/transcripts/opencode-db.js';
import { makeRepo } from './helpers.js';
import { NEEDS_SQLITE, sqlite } from './sqlite.js';

const FIX = path.resolve(__dirname, 'fixtures/transcripts');
const PROMPT = 'Add a sum helper in src/sum.js and run npm test. Never touch the generated/ folder.';
/** What the scripted model answers every summarizer. */
const SUMMARY = 'Summary of the session so far: the task list, src/sum.js and npm test.';

/** file, the format it is read as, and the compactions in the recording. */
const CASES: Array<[string, string, number]> = [
  ['pi/pi-1.5.2-sum.jsonl', 'pi', 1],
  ['copilot/copilot-1.0.102-sum.events.jsonl', 'copilot', 1],
  ['cline/cline-3.0.65-sum.messages.json', 'cline', 0],
  ['qwen/qwen-0.24.4-sum.jsonl', 'qwen', 1],
  ['kilo/kilo-7.7.7-sum.db', 'opencode', 1],
];

async function events(
  file: string,
  sessionId?: string,
): Promise<{ agent: string; list: TranscriptEvent[]; stats: object }> {
  const opened = await openTranscript(path.join(FIX, file), file, undefined, sessionId);
  const list: TranscriptEvent[] = [];
  for await (const e of opened.events()) list.push(e);
  return { agent: opened.agent, list, stats: opened.stats };
}

/** Kilo keeps every run's session in one database: the task's session, and every session. */
async function sessions(file: string): Promise<Array<string | undefined>> {
  return file.endsWith('.db') ? (await openCodeDbSessions(path.join(FIX, file))).map((s) => s.id) : [undefined];
}

async function taskSession(file: string): Promise<string | undefined> {
  for (const id of await sessions(file))
    if ((await events(file, id)).list.some((e) => e.kind === 'user' && e.text === PROMPT)) return id;
  return undefined;
}

describe('transcripts recorded from the five added agents', () => {
  it.for(CASES)('%s: detected as %s, every record known', async ([file, agent], ctx) => {
    ctx.skip(file.endsWith('.db') && !sqlite, NEEDS_SQLITE);
    for (const id of await sessions(file)) {
      const read = await events(file, id);
      expect(read.agent).toBe(agent);
      expect(read.stats).toMatchObject({ unknown: 0, badLines: 0 });
    }
    const task = await events(file, await taskSession(file));
    const kinds = new Set(task.list.map((e) => e.kind));
    for (const k of ['meta', 'user', 'file-edit', 'shell', 'tool-result']) expect(kinds).toContain(k);
  });

  it.for(CASES)("%s: the agent's own compaction summary arrives on the compaction event", async ([file, , n], ctx) => {
    ctx.skip(file.endsWith('.db') && !sqlite, NEEDS_SQLITE);
    const found: string[] = [];
    for (const id of await sessions(file))
      for (const e of (await events(file, id)).list) if (e.kind === 'compaction') found.push(e.summary ?? '');
    expect(found).toHaveLength(n);
    // As the agent stored it, less what it wraps around it (pi's file lists, Qwen's resume instruction).
    for (const summary of found) {
      expect(summary.startsWith(SUMMARY)).toBe(true);
      expect(summary).not.toMatch(/modified-files|Resume the prior task/);
    }
  });

  // Kilo's database drafts as OpenCode's does (recorded-transcripts.test.ts); `--from` takes its newest session.
  it.each(CASES.filter(([f]) => !f.endsWith('.db')))('%s: drafts the file, the test run and the constraint', (file) => {
    const repo = makeRepo();
    const r = repo.handoff(['new', 'carry on', '--from', path.join(FIX, file), '--no-edit', '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('skipped');
    const body = readFileSync(path.join(repo.dir, '.handoff/handoffs', repo.files('.handoff/handoffs')[0]!), 'utf8');
    expect(body).toMatch(/- `src\/sum\.js` \(written in the session, transcript line \d+/);
    expect(body).toMatch(/- `npm test`: passed \(transcript line \d+\)/);
    expect(body).toContain('"Never touch the generated/ folder."');
    expect(body).toContain(`> ${PROMPT}\n`);
    // What our own hooks injected (Copilot's additional context, Qwen's hook context) is not the user's words.
    expect(body).not.toContain('qwen:');
    expect(body).not.toContain('Keep <Widget>');
  });
});

describe('--from auto finds the sessions of the added agents where they keep them', () => {
  it('Copilot CLI, Qwen Code and Cline sessions of this repository are listed by `handoff sessions`', () => {
    const repo = makeRepo();
    const home = path.join(repo.dir, '..', 'home');
    const put = (from: string, to: string) => {
      mkdirSync(path.dirname(path.join(home, to)), { recursive: true });
      // The recordings ran in /home/user/project: here they ran in this repository.
      writeFileSync(
        path.join(home, to),
        readFileSync(path.join(FIX, from), 'utf8').split('/home/user/project').join(repo.dir),
      );
    };
    put('copilot/copilot-1.0.102-sum.events.jsonl', '.copilot/session-state/80f6b76e/events.jsonl');
    put('qwen/qwen-0.24.4-sum.jsonl', `.qwen/projects/${repo.dir.replace(/[^a-zA-Z0-9]/g, '-')}/chats/cc1cf561.jsonl`);
    put(
      'cline/cline-3.0.65-sum.messages.json',
      '.cline/data/sessions/1795505057633_zpr61/1795505057633_zpr61.messages.json',
    );
    put('cline/cline-3.0.65-sum.json', '.cline/data/sessions/1795505057633_zpr61/1795505057633_zpr61.json');
    const r = repo.handoff(['sessions', '--json'], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const agents = (JSON.parse(r.stdout).sessions as Array<{ agent: string }>).map((s) => s.agent).sort();
    expect(agents).toEqual(['cline', 'copilot', 'qwen']);
  });
});
