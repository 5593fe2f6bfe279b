// OpenCode: a SQLite database built at test time (with node:sqlite, as OpenCode's own
// schema would hold it), read-only, and the legacy JSON storage; on a Node without
// node:sqlite, one line saying which Node reads the database.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from './helpers.js';
import { SQLITE_NODE } from '../src/transcripts/opencode-db.js';
import { NEEDS_SQLITE, sqlite } from './sqlite.js';

const RECORDED = path.resolve(__dirname, 'fixtures/transcripts/opencode/opencode-1.18.33-sum.db');

const parts = (cwd: string) => [
  { type: 'text', text: 'Never edit the generated client. Add retries.' },
  {
    type: 'tool',
    tool: 'edit',
    callID: 'c1',
    state: { status: 'completed', input: { filePath: path.join(cwd, 'src/retry.ts') }, output: 'ok' },
  },
  {
    type: 'tool',
    tool: 'bash',
    callID: 'c2',
    state: { status: 'error', input: { command: 'npm test' }, output: 'FAIL' },
  },
  { type: 'step-finish', tokens: { input: 1000, output: 10, cache: { read: 40000, write: 0 } } },
];

function buildDb(file: string, cwd: string): void {
  const db = new sqlite!.DatabaseSync(file);
  const run = (sql: string, values: Array<string | number>) => db.prepare(sql).run(...values);
  db.exec(
    'CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, directory TEXT, title TEXT, time_created INTEGER, time_updated INTEGER)',
  );
  db.exec('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, data TEXT)');
  db.exec('CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, data TEXT)');
  run('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?)', ['ses_1', 'p', cwd, 't', 1763600000000, 1763600500000]);
  run('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?)', [
    'ses_other',
    'p',
    '/elsewhere',
    't',
    1763600000000,
    1763700000000,
  ]);
  run('INSERT INTO message VALUES (?, ?, ?, ?)', ['msg_1', 'ses_1', 1, JSON.stringify({ role: 'user' })]);
  run('INSERT INTO part VALUES (?, ?, ?, ?, ?)', ['prt_1', 'msg_1', 'ses_1', 1, JSON.stringify(parts(cwd)[0])]);
  run('INSERT INTO message VALUES (?, ?, ?, ?)', [
    'msg_2',
    'ses_1',
    2,
    JSON.stringify({ role: 'assistant', modelID: 'claude-sonnet-4-5' }),
  ]);
  parts(cwd)
    .slice(1)
    .forEach((p, i) =>
      run('INSERT INTO part VALUES (?, ?, ?, ?, ?)', [`prt_${i + 2}`, 'msg_2', 'ses_1', i + 2, JSON.stringify(p)]),
    );
  db.close();
}

describe('OpenCode', () => {
  it('reads its SQLite database read-only and finds the session of this repository', (ctx) => {
    ctx.skip(!sqlite, NEEDS_SQLITE);
    const repo = makeRepo();
    const data = tempDir();
    const db = path.join(data, 'opencode', 'opencode.db');
    mkdirSync(path.dirname(db), { recursive: true });
    buildDb(db, repo.dir);
    const before = readFileSync(db);
    const tmp = tempDir();
    const env = { HOME: tempDir(), XDG_DATA_HOME: data, TMPDIR: tmp };
    const list = JSON.parse(repo.handoff(['sessions', '--json'], { env }).stdout).sessions;
    expect(list).toEqual([
      expect.objectContaining({
        agent: 'opencode',
        session: 'ses_1',
        context: { tokens: 41000, window: 200000, percent: 20.5 },
      }),
    ]);
    const r = repo.handoff(['new', 'retries', '--from', 'auto', '--no-edit'], { env });
    expect(r.code, r.stderr).toBe(0);
    const body = repo.read(`.handoff/handoffs/${repo.files('.handoff/handoffs')[0]}`);
    expect(body).toContain('"Never edit the generated client."');
    expect(body).toContain('`src/retry.ts` (edited in the session');
    expect(body).toContain('- `npm test`: failed');
    expect(r.stderr).not.toMatch(/ExperimentalWarning/);
    expect(readFileSync(db).equals(before)).toBe(true);
    // The private copy SQLite opened is gone.
    expect(readdirSync(tmp).filter((f) => f.startsWith('handoff-opencode-'))).toEqual([]);
  });

  it('refuses a damaged database in one line naming it, writing nothing', (ctx) => {
    ctx.skip(!sqlite, NEEDS_SQLITE);
    const repo = makeRepo();
    const db = path.join(tempDir(), 'opencode.db');
    // SQLite's header, then no valid page: detected as OpenCode's, unreadable as a database.
    writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080, 0x5a)]));
    const r = repo.handoff(['new', 'carry on', '--from', db, '--no-edit', '--force']);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`handoff: ${db}: not a SQLite database SQLite can read (`)).toBe(true);
    expect(r.stderr.endsWith("); expected OpenCode's opencode.db\n")).toBe(true);
    expect(r.stderr.split('\n')).toHaveLength(2); // one line
    expect(existsSync(path.join(repo.dir, '.handoff/handoffs'))).toBe(false);
  });

  it('on a Node without node:sqlite, says in one line which Node reads the database', (ctx) => {
    ctx.skip(
      sqlite !== undefined,
      `this Node (${process.versions.node}) has node:sqlite; the refusal is for older ones`,
    );
    const repo = makeRepo();
    const r = repo.handoff(['new', 'carry on', '--from', RECORDED, '--no-edit', '--force']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `handoff: ${RECORDED}: reading an OpenCode or Kilo database needs Node ${SQLITE_NODE} or newer (node:sqlite); this is Node ${process.versions.node}. OpenCode's legacy JSON storage reads on any Node\n`,
    );
    expect(repo.files('.handoff/handoffs')).toEqual([]);
  });

  it('reads the legacy JSON storage', () => {
    const repo = makeRepo();
    const storage = path.join(tempDir(), 'storage');
    const put = (rel: string, value: unknown) => {
      mkdirSync(path.dirname(path.join(storage, rel)), { recursive: true });
      writeFileSync(path.join(storage, rel), JSON.stringify(value, null, 2));
    };
    put('session/proj/ses_9.json', {
      id: 'ses_9',
      projectID: 'proj',
      directory: repo.dir,
      title: 't',
      time: { created: 1, updated: 2 },
    });
    put('message/ses_9/msg_1.json', { id: 'msg_1', sessionID: 'ses_9', role: 'user' });
    put('part/msg_1/prt_1.json', parts(repo.dir)[0]);
    put('message/ses_9/msg_2.json', { id: 'msg_2', sessionID: 'ses_9', role: 'assistant' });
    parts(repo.dir)
      .slice(1)
      .forEach((p, i) => put(`part/msg_2/prt_${i + 2}.json`, p));
    const r = repo.handoff(['meter', '--json', '--from', path.join(storage, 'session/proj/ses_9.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agent: 'opencode', session: 'ses_9', context: { tokens: 41000 } });
  });
});
