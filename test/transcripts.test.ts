// handoff new --from / meter / sessions on synthetic sessions written into real temp repos.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantText, compact, fakeGithubToken, result, tool, unknownRecord, user } from './claude-lines.js';
import { makeRepo, tempDir } from './helpers.js';

const handoffBody = (repo: ReturnType<typeof makeRepo>) =>
  repo.read(`.handoff/handoffs/${repo.files('.handoff/handoffs')[0]}`);

function session(cwd: string): string[] {
  const e = { cwd };
  return [
    user(e, 'Add the teams page. Never touch src/auth/session.ts. Always run npm test before you commit.'),
    assistantText(e, 'Looking at the code first.', 40_000),
    tool(e, 'Edit', { file_path: path.join(cwd, 'src/teams.ts'), old_string: 'a', new_string: 'b' }, 't1'),
    result(e, 't1', false),
    tool(e, 'Write', { file_path: path.join(cwd, 'src/reverted.ts'), content: 'x' }, 't2'),
    result(e, 't2', false),
    tool(e, 'Bash', { command: 'npm test' }, 't3'),
    result(e, 't3', true, 'FAIL 1 test'),
    tool(e, 'Bash', { command: 'npm run build' }, 't4'),
    result(e, 't4', false),
    assistantText(e, 'I decided to use a Map instead of an array because lookups by team id dominate.'),
    tool(
      e,
      'TodoWrite',
      {
        todos: [
          { content: 'Create the teams model', status: 'completed', activeForm: 'Creating' },
          { content: 'Wire the teams page', status: 'in_progress', activeForm: 'Wiring' },
          { content: 'Write the teams tests', status: 'pending', activeForm: 'Writing' },
        ],
      },
      't5',
    ),
    tool(e, 'ExitPlanMode', { plan: '1. Model\n2. Page\n3. Tests' }, 't6'),
    tool({ ...e, sidechain: true }, 'Bash', { command: 'cargo test' }, 't7'),
    user({ ...e, sidechain: true }, 'Never mention this subagent prompt.'),
    unknownRecord(e),
    user(e, `My token is ${fakeGithubToken()}, keep going with the page.`),
    assistantText(e, 'On it.', 120_000),
  ];
}

describe('handoff new --from a Claude Code session', () => {
  it('fills the draft from the transcript and offers the constraints as pin candidates', () => {
    const repo = makeRepo();
    repo.commit('teams', { 'src/teams.ts': 'export const a = 1;\n', 'src/reverted.ts': 'x' });
    repo.write('src/teams.ts', 'export const a = 2;\n');
    const file = path.join(tempDir(), 'session.jsonl');
    writeFileSync(file, session(repo.dir).join('\n') + '\n');
    const r = repo.handoff(['new', 'finish the teams page', '--from', file, '--no-edit']);
    expect(r.stderr).toContain('skipped 1 record of a type this version does not know');
    expect(r.code).toBe(0);
    const body = handoffBody(repo);
    expect(body).toContain('Pin candidate (the user\'s words, transcript line 1): "Never touch src/auth/session.ts."');
    expect(body).toContain('"Always run npm test before you commit."');
    expect(body).not.toContain('Never mention this subagent');
    expect(body).toMatch(/## Completed\n\n- Create the teams model \(todo, transcript line 12\)/);
    expect(body).toMatch(/## In progress\n\n- Wire the teams page/);
    expect(body).toMatch(/## Next steps\n\n- Write the teams tests/);
    expect(body).toContain(
      '"I decided to use a Map instead of an array because lookups by team id dominate." (extracted from transcript line 11; confirm or delete)',
    );
    expect(body).toContain('- `npm test`: failed (transcript line 7)');
    expect(body).toContain('- `npm run build`: passed (transcript line 9)');
    expect(body).toContain('- `cargo test`: result not recorded (run by a subagent, transcript line 14)');
    expect(body).toContain('`src/reverted.ts` (written in the session, transcript line 5; git shows it unchanged');
    expect(body).not.toContain('`src/teams.ts` (edited in the session');
    expect(body).toContain('> 1. Model');
    expect(body).toContain('[REDACTED:github-pat]');
    expect(body).not.toContain(fakeGithubToken());
    expect(repo.files('.handoff/pins')).toHaveLength(0);
  });

  it('--pin-candidates pins the constraints verbatim, once', () => {
    const repo = makeRepo();
    const file = path.join(tempDir(), 'session.jsonl');
    writeFileSync(file, session(repo.dir).join('\n') + '\n');
    expect(repo.handoff(['new', 'g', '--from', file, '--no-edit', '--pin-candidates']).code).toBe(0);
    const pins = repo.files('.handoff/pins').map((f) => repo.read(`.handoff/pins/${f}`));
    expect(pins).toHaveLength(2);
    expect(pins.some((p) => p.endsWith('Never touch src/auth/session.ts.'))).toBe(true);
    expect(repo.handoff(['pins']).stdout).toContain('Always run npm test before you commit.');
    expect(handoffBody(repo)).not.toContain('Pin candidate');
    repo.handoff(['new', 'g2', '--from', file, '--no-edit', '--pin-candidates']);
    expect(repo.files('.handoff/pins')).toHaveLength(2);
    const without = repo.handoff(['new', 'g3', '--no-edit', '--pin-candidates']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--pin-candidates needs a transcript');
  });
});

describe('bad transcripts', () => {
  const write = (content: string | Buffer) => {
    const file = path.join(tempDir(), 'session.jsonl');
    writeFileSync(file, content);
    return file;
  };

  it('a truncated last line and a non-JSON line in the middle are skipped and counted', () => {
    const repo = makeRepo();
    const lines = session(repo.dir);
    const file = write(
      [...lines.slice(0, 3), 'this is not json', ...lines.slice(3), lines[0]!.slice(0, 40)].join('\n'),
    );
    const r = repo.handoff(['new', 'g', '--from', file, '--no-edit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('skipped 2 lines of');
    expect(handoffBody(repo)).toContain('Wire the teams page');
  });

  it('an empty file, a directory and a file of another format are errors naming the formats', () => {
    const repo = makeRepo();
    const empty = repo.handoff(['new', 'g', '--from', write(''), '--no-edit']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('the transcript is empty');
    const other = repo.handoff(['new', 'g', '--from', write('name,value\na,1\n'), '--no-edit']);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/session\.jsonl: not a transcript format .*Claude Code JSONL, Codex CLI/);
    expect(repo.files('.handoff/handoffs')).toHaveLength(0);
  });

  it('a session from another repository needs --force', () => {
    const repo = makeRepo();
    const file = write(session('/somewhere/else').join('\n'));
    const r = repo.handoff(['new', 'g', '--from', file, '--no-edit']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ran in /somewhere/else, not in this repository; use --force');
    expect(repo.files('.handoff/handoffs')).toHaveLength(0);
    const forced = repo.handoff(['new', 'g', '--from', file, '--no-edit', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('warning');
  });

  it('special tokens and non-UTF-8 bytes pass through without failing', () => {
    const repo = makeRepo();
    const e = { cwd: repo.dir };
    const text = Buffer.concat([
      Buffer.from(
        user(e, 'Keep <|endoftext|> and <|im_start|> as text. Never drop the tokens.').replace('drop', 'drop\\u0000') +
          '\n',
      ),
      Buffer.from(user(e, 'bad bytes: X').replace('X', '') + '\n'),
      Buffer.from([0xff, 0xfe, 0x80, 0x0a]),
      Buffer.from(user(e, 'caf\u00e9 after bad bytes') + '\n'),
    ]);
    const r = repo.handoff(['new', 'g', '--from', write(text), '--no-edit']);
    expect(r.code).toBe(0);
    const body = handoffBody(repo);
    expect(body).toContain('<|endoftext|>');
    expect(body).toContain('café after bad bytes');
  });
});

describe('help', () => {
  it('lists sessions and meter, and the new options of new', () => {
    const repo = makeRepo();
    const help = repo.handoff(['--help']);
    expect(help.stdout).toContain('sessions');
    expect(help.stdout).toContain('meter');
    const sub = repo.handoff(['new', '--help']).stdout;
    for (const option of ['--from', '--pin-candidates', '--force']) expect(sub).toContain(option);
  });
});

describe('handoff meter', () => {
  it('reports the latest main-chain usage and exits 3 above the threshold', () => {
    const repo = makeRepo();
    const file = path.join(tempDir(), 's.jsonl');
    writeFileSync(file, session(repo.dir).join('\n'));
    const r = repo.handoff(['meter', '--from', file, '--json']);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m).toMatchObject({
      agent: 'claude-code',
      context: { tokens: 120000, window: 200000, window_source: 'model', percent: 60 },
      above: false,
    });
    repo.write('.handoff/config.yml', 'meter_threshold: 50\n');
    const above = repo.handoff(['meter', '--from', file]);
    expect(above.code).toBe(3);
    expect(above.stdout).toContain('120,000 of 200,000 tokens (60%');
    expect(above.stdout).toContain('hand off now');
  });

  it('counts nothing from before the last compaction', () => {
    const repo = makeRepo();
    const e = { cwd: repo.dir };
    const file = path.join(tempDir(), 's.jsonl');
    writeFileSync(file, [user(e, 'hi'), assistantText(e, 'a', 190_000), compact(e)].join('\n'));
    const r = repo.handoff(['meter', '--from', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ context: null, compactions: 1 });
    writeFileSync(
      file,
      [user(e, 'hi'), assistantText(e, 'a', 190_000), compact(e), assistantText(e, 'b', 30_000)].join('\n'),
    );
    expect(JSON.parse(repo.handoff(['meter', '--from', file, '--json']).stdout)).toMatchObject({
      context: { tokens: 30000, percent: 15 },
    });
  });

  it('rejects a bad threshold in config.yml with the file named', () => {
    const repo = makeRepo();
    repo.write('.handoff/config.yml', 'meter_threshold: 150\n');
    const r = repo.handoff(['meter', '--from', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('config.yml');
    expect(r.stderr).toContain('meter_threshold must be a positive number up to 100');
  });
});

describe('discovery: --from auto and handoff sessions', () => {
  it('finds the newest session of this repository under CLAUDE_CONFIG_DIR and CODEX_HOME', () => {
    const repo = makeRepo();
    const home = tempDir();
    const claudeDir = path.join(home, 'claude-config');
    const project = path.join(claudeDir, 'projects', repo.dir.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, 'sess-1.jsonl'), session(repo.dir).join('\n'));
    const other = path.join(claudeDir, 'projects', '-elsewhere');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'x.jsonl'), session('/elsewhere').join('\n'));
    const codexDay = path.join(home, 'codex', 'sessions', '2026', '11', '20');
    mkdirSync(codexDay, { recursive: true });
    const codexLines = [
      {
        timestamp: '2026-11-20T10:00:00Z',
        type: 'session_meta',
        payload: { id: 'cx-1', cwd: path.join(repo.dir, 'sub'), cli_version: '0.125.0' },
      },
      {
        timestamp: '2026-11-20T10:00:01Z',
        type: 'event_msg',
        payload: { type: 'user_message', message: 'Only use pnpm here.' },
      },
      {
        timestamp: '2026-11-20T10:00:02Z',
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { last_token_usage: { total_tokens: 250000 }, model_context_window: 258400 },
        },
      },
    ];
    writeFileSync(
      path.join(codexDay, 'rollout-2026-11-20T10-00-00-cx-1.jsonl'),
      codexLines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    const env = { HOME: home, CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: path.join(home, 'codex') };

    const list = repo.handoff(['sessions', '--json'], { env });
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout).sessions as Array<{
      agent: string;
      session: string;
      context: { percent: number } | null;
    }>;
    expect(rows.map((r) => r.agent).sort()).toEqual(['claude-code', 'codex']);
    expect(rows.find((r) => r.agent === 'codex')!.context!.percent).toBe(96.7);

    const meter = repo.handoff(['meter'], { env });
    expect(meter.stderr).toMatch(/reading the (codex|claude-code) session/);
    const auto = repo.handoff(['new', 'g', '--from', 'auto', '--no-edit'], { env });
    expect(auto.code).toBe(0);
    expect(auto.stderr).toContain('the newest for this repository');
  });

  it('finds Gemini CLI, pi, Aider and SpecStory sessions by their default locations', () => {
    const repo = makeRepo();
    const home = tempDir();
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    const hash = createHash('sha256').update(repo.dir).digest('hex');
    put(
      path.join(home, 'gh', '.gemini', 'tmp', hash, 'chats', 'session-1.json'),
      JSON.stringify(
        { sessionId: 'gem-1', projectHash: hash, startTime: 't', messages: [{ type: 'user', content: 'hi' }] },
        null,
        2,
      ),
    );
    const piDir = '--' + repo.dir.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-') + '--';
    put(
      path.join(home, 'pi', 'sessions', piDir, 's.jsonl'),
      JSON.stringify({ type: 'session', id: 'pi-1', cwd: repo.dir, timestamp: 't' }) + '\n',
    );
    repo.write(
      '.aider.chat.history.md',
      '# aider chat started at 2026-11-20 10:00:00\n\n#### Only touch the parser.\n',
    );
    repo.write(
      '.specstory/history/2026-11-20_10-00-00Z-x.md',
      '<!-- Generated by SpecStory -->\n\n_**User**_\n\nhello\n',
    );
    const env = { HOME: home, GEMINI_CLI_HOME: path.join(home, 'gh'), PI_CODING_AGENT_DIR: path.join(home, 'pi') };
    const rows = JSON.parse(repo.handoff(['sessions', '--json'], { env }).stdout).sessions as Array<{ agent: string }>;
    expect(rows.map((r) => r.agent).sort()).toEqual(['aider', 'gemini-cli', 'pi', 'specstory']);
  });

  it('--from auto with no sessions drafts from git alone and says so', () => {
    const repo = makeRepo();
    const r = repo.handoff(['new', 'g', '--from', 'auto', '--no-edit'], { env: { HOME: tempDir() } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('drafting from git alone');
    expect(repo.handoff(['sessions'], { env: { HOME: tempDir() } }).stdout).toContain('No agent sessions found');
    const meter = repo.handoff(['meter', '--json'], { env: { HOME: tempDir() } });
    expect(meter.code).toBe(0);
    expect(JSON.parse(meter.stdout)).toEqual({
      schema_version: 1,
      agent: null,
      session: null,
      file: null,
      model: null,
      context: null,
      threshold: null,
      above: false,
      compactions: 0,
    });
  });
});
