// The transcripts the current releases of the five agents wrote in `npm run test:agents`
// (test/fixtures/transcripts/RECORDED.md says how): every record known, and the draft
// carries the todos, the file written, the test run and the user's constraint.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTranscript } from '../src/transcripts/open.js';
import { foldWal } from '../src/transcripts/wal.js';
import { encodeWal } from './agents/record.js';
import { makeRepo } from './helpers.js';
import { NEEDS_SQLITE, sqlite } from './sqlite.js';

const FIX = path.resolve(__dirname, 'fixtures/transcripts');

const CASES: Array<[string, string, RegExp]> = [
  [
    'claude-code/claude-code-2.1.330-sum.jsonl',
    'claude-code',
    /## Completed\n\n- Write src\/sum\.js and run npm test \(todo, transcript line \d+\)/,
  ],
  [
    'codex/rollout-codex-0.169.0-sum.jsonl',
    'codex',
    /## In progress\n\n- Write src\/sum\.js and run npm test \(todo, transcript line \d+\)/,
  ],
  [
    'gemini-cli/session-gemini-0.61.0-sum.jsonl',
    'gemini-cli',
    /## In progress\n\n- Write src\/sum\.js \(todo, transcript line \d+\)/,
  ],
  ['pi/pi-0.73.1-sum.jsonl', 'pi', /## Current state/],
  [
    'opencode/opencode-1.18.33-sum.db',
    'opencode',
    /## In progress\n\n- Write src\/sum\.js \(todo, transcript line \d+\)/,
  ],
];

describe('transcripts recorded from the current releases', () => {
  it.for(CASES)('%s: no unknown records', async ([file, agent], ctx) => {
    ctx.skip(agent === 'opencode' && !sqlite, NEEDS_SQLITE);
    const opened = await openTranscript(path.join(FIX, file), file);
    expect(opened.agent).toBe(agent);
    const kinds = new Set<string>();
    for await (const e of opened.events()) kinds.add(e.kind);
    expect(opened.stats).toMatchObject({ unknown: 0, badLines: 0 });
    for (const k of ['user', 'file-edit', 'shell', 'tool-result']) expect(kinds).toContain(k);
  });

  it.for(CASES)('%s: drafts the todos, the file, the test run and the constraint', ([file, agent, todo], ctx) => {
    ctx.skip(agent === 'opencode' && !sqlite, NEEDS_SQLITE);
    const repo = makeRepo();
    const r = repo.handoff(['new', 'carry on', '--from', path.join(FIX, file), '--no-edit', '--force']);
    expect(r.code, r.stderr).toBe(0);
    const body = readFileSync(path.join(repo.dir, '.handoff/handoffs', repo.files('.handoff/handoffs')[0]!), 'utf8');
    expect(body).toContain(`(${agent}, session `);
    expect(body).toMatch(todo);
    // Gemini CLI records absolute paths and no working directory: they stay outside this repository.
    if (agent !== 'gemini-cli') expect(body).toMatch(/- `src\/sum\.js` \(written in the session, transcript line \d+/);
    expect(body).toMatch(/- `npm test`: passed \(transcript line \d+\)/);
    expect(body).toContain("Pin candidate (the user's words, transcript line");
    expect(body).toContain('"Never touch the generated/ folder."');
    // The user's words arrive as typed: no quotes added (OpenCode), no injected context.
    expect(body).toContain('> Add a sum helper in src/sum.js and run npm test. Never touch the generated/ folder.\n');
    // What our own session-start hook injected is never quoted back as the user's words.
    expect(body).not.toContain('hook_context');
    expect(body).not.toContain('keeps lasting constraints as pins');
  });

  it('Claude Code: TaskCreate is keyed by the id in its result, so TaskUpdate completes it', async () => {
    const opened = await openTranscript(path.join(FIX, CASES[0]![0]), 'claude');
    const tasks = [];
    for await (const e of opened.events()) if (e.kind === 'task') tasks.push(e);
    expect(tasks).toHaveLength(2);
    expect(tasks[0]).toMatchObject({
      kind: 'task',
      id: '1',
      subject: 'Write src/sum.js and run npm test',
      status: 'pending',
    });
    expect(tasks[1]).toMatchObject({ kind: 'task', id: '1', status: 'completed' });
  });
});

describe('OpenCode write-ahead log', () => {
  it("reads what is only in the WAL, and never writes the user's files", async (ctx) => {
    ctx.skip(!sqlite, NEEDS_SQLITE);
    const db = path.join(FIX, 'opencode/opencode-1.18.33-sum.db');
    const before = [readFileSync(db), readFileSync(`${db}-wal`)];
    expect(before[0]!.length).toBe(4096); // the main file holds nothing yet
    const opened = await openTranscript(db, db);
    let users = 0;
    for await (const e of opened.events()) if (e.kind === 'user') users++;
    expect(users).toBe(1);
    expect(readFileSync(db).equals(before[0]!)).toBe(true);
    expect(readFileSync(`${db}-wal`).equals(before[1]!)).toBe(true);
  });

  it('folds committed frames only: a torn last frame is ignored, a bad header leaves the file as it is', () => {
    const page = (fill: number) => Buffer.alloc(4096, fill);
    const main = Buffer.concat([page(1), page(2)]);
    main.writeUInt16BE(4096, 16);
    const changed = Buffer.concat([Buffer.from(main.subarray(0, 4096)), page(7)]);
    const wal = encodeWal(changed);
    const folded = foldWal(main, wal);
    expect(folded.subarray(4096).equals(page(7))).toBe(true);
    expect(folded[18]).toBe(1);
    // A frame cut short, or one whose checksum fails, ends the log where it is.
    expect(foldWal(main, wal.subarray(0, wal.length - 10)).equals(main)).toBe(true);
    const corrupt = Buffer.from(wal);
    corrupt[wal.length - 1]! ^= 0xff;
    expect(foldWal(main, corrupt).equals(main)).toBe(true);
    const badMagic = Buffer.from(wal);
    badMagic[0] = 0;
    expect(foldWal(main, badMagic)).toBe(main);
  });
});
