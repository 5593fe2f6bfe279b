// The agent hook entry points through the built CLI, fed the JSON each agent sends.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, TRANSCRIPTS, tempDir, type Repo } from './helpers.js';

const TRANSCRIPT = path.join(TRANSCRIPTS, 'claude-code/codemie-4c2ddfdc-v2.0.64.jsonl');

/** What Claude Code sends at session start (hooks reference: common fields + source). */
const claudeSessionStart = (cwd: string, source = 'startup') =>
  JSON.stringify({
    session_id: '4c2ddfdc-b619-4525-8d03-1950fb1b0257',
    transcript_path: TRANSCRIPT,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'SessionStart',
    source,
    model: 'claude-sonnet-4-5',
  });

/** What Claude Code sends before compacting (PreCompact: trigger + custom_instructions). */
const claudePreCompact = (cwd: string, transcript: string | undefined, custom = '') =>
  JSON.stringify({
    session_id: '4c2ddfdc-b619-4525-8d03-1950fb1b0257',
    ...(transcript === undefined ? {} : { transcript_path: transcript }),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreCompact',
    trigger: custom ? 'manual' : 'auto',
    custom_instructions: custom,
  });

function withHandoff(goal = 'build the teams page', body?: string): Repo {
  const repo = makeRepo();
  expect(repo.handoff(['init']).code).toBe(0);
  expect(repo.handoff(['pin', 'never touch src/auth']).code).toBe(0);
  repo.write('src/teams.ts', 'export const teams = 1;\n');
  const args = ['new', goal, '--no-edit'];
  if (body !== undefined) {
    repo.write('body.md', body);
    args.push('-F', 'body.md');
  }
  const made = repo.handoff(args);
  expect(made.code).toBe(0);
  return repo;
}

describe('handoff hook claude-session-start', () => {
  it('answers with the resume prompt as SessionStart additionalContext', () => {
    const repo = withHandoff();
    const resume = repo.handoff(['resume']);
    const hook = repo.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(repo.dir) });
    expect(hook.code).toBe(0);
    const out = JSON.parse(hook.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toBe(resume.stdout);
    expect(out.systemMessage).toBeUndefined();
    expect(hook.stderr).toMatch(/^handoff: resumed [0-9a-z]{26} \(startup\)\n$/);
  });

  it('sends pins, goal and next steps inline and points to the file when the prompt is 50,000 characters', () => {
    const decisions = Array.from(
      { length: 730 },
      (_, i) => `- decision ${i}: ${'the table is documents_v2 because of the migration '.slice(0, 80)}`,
    ).join('\n');
    const body = `## Goal\n\nship teams\n\n## Next steps\n\n- wire the billing form\n- run the migration\n\n## Decisions\n\n${decisions}\n`;
    const repo = withHandoff('ship teams', body);
    // The resume prompt's own budget (resume_tokens) would keep it short: lift it, to test the hook's cut.
    repo.write('.handoff/config.yml', 'resume_tokens: 100000\n');
    const prompt = repo.handoff(['resume']).stdout;
    expect(prompt.length).toBeGreaterThanOrEqual(50_000);
    const hook = repo.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(repo.dir, 'compact') });
    expect(hook.code).toBe(0);
    const out = JSON.parse(hook.stdout);
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context.length).toBeLessThanOrEqual(10_000);
    expect(context).toContain('```text\nnever touch src/auth\n```');
    expect(context).toContain('```text\nship teams\n```');
    expect(context).toContain('- wire the billing form\n- run the migration');
    expect(context).not.toContain('decision 729');
    const file = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs[0].file;
    expect(context).toContain(`\`${file}\``);
    expect(context).toContain('handoff resume');
    // Never cut silently: the user is told too.
    expect(out.systemMessage).toMatch(
      /over the 10,000 a session-start hook can pass to Claude Code uncut; sent the pins, goal and next steps/,
    );
    expect(hook.stderr).toContain(out.systemMessage);
  });

  it('points to a pin too long to pass alone by its file, and keeps the short one verbatim', () => {
    const repo = withHandoff();
    repo.write('long-pin.txt', `${'x'.repeat(11_000)}\n`);
    expect(repo.handoff(['pin', '--file', 'long-pin.txt']).code).toBe(0);
    const out = JSON.parse(
      repo.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(repo.dir) }).stdout,
    );
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context.length).toBeLessThanOrEqual(10_000);
    expect(context).toMatch(
      /This pin is too long to pass here \(11,001 characters\)\. Read `\.handoff\/pins\/[0-9a-z]{26}\.md` now/,
    );
    expect(context).toContain('handoff resume');
    expect(out.systemMessage).toContain(
      'sent the pins, goal and next steps (1 pin too long alone: pointed to its file)',
    );
  });

  it('says nothing in a repository without .handoff/, and exits 0 when there is nothing to resume', () => {
    const bare = makeRepo();
    const none = bare.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(bare.dir) });
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(bare.handoff(['init']).code).toBe(0);
    const empty = bare.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(bare.dir) });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(/^handoff: nothing to resume: no open handoff on branch 'main'/);
    // With no handoff the pins still reach the agent, word for word.
    const pin = 'Keep <Widget> & "quoted" names exactly as written.';
    expect(bare.handoff(['pin', pin]).code).toBe(0);
    const pinned = bare.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(bare.dir) });
    expect(JSON.parse(pinned.stdout).hookSpecificOutput.additionalContext).toContain(`\n\`\`\`text\n${pin}\n\`\`\`\n`);
    expect(pinned.stderr).toContain('no open handoff; passed the 1 pinned constraint');
  });

  it('fails open: malformed stdin, a broken config, or no repository at all is a warning and exit 0', () => {
    const repo = withHandoff();
    for (const input of ['{"session_id": "abc', '[1,2]', '"SessionStart"']) {
      const r = repo.handoff(['hook', 'claude-session-start'], { input });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^handoff: warning: claude-session-start: stdin is .*; nothing done\n$/);
    }
    const unknown = repo.handoff(['hook', 'no-such-hook'], { input: '{}' });
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toContain("no hook named 'no-such-hook'");
    // A broken config.yml: the session start goes on with the defaults (tested below).
    repo.write('.handoff/config.yml', 'draft_commits: [oops\n');
    const broken = repo.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(repo.dir) });
    expect(broken.code).toBe(0);
    expect(broken.stderr).toMatch(/^handoff: warning: config\.yml could not be read, .*config\.yml/);
    const outside = tempDir();
    const nowhere = makeRepo().handoff(['hook', 'claude-session-start'], {
      input: claudeSessionStart(outside),
      cwd: outside,
    });
    expect(nowhere.code).toBe(0);
    expect(nowhere.stderr).toMatch(/^handoff: warning: hook failed, ignored: not inside a git work tree/);
  });

  it('loads no yargs, remark, openai or tokenizer', () => {
    const repo = withHandoff();
    const dir = tempDir();
    const log = path.join(dir, 'modules.log');
    writeFileSync(
      path.join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
    );
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`,
    );
    const env = { NODE_OPTIONS: `--import=${pathToFileURL(path.join(dir, 'register.mjs')).href}` };
    for (const [name, input] of [
      ['claude-session-start', claudeSessionStart(repo.dir)],
      ['claude-pre-compact', claudePreCompact(repo.dir, TRANSCRIPT)],
    ] as const) {
      writeFileSync(log, '');
      const r = repo.handoff(['hook', name], { input, env });
      expect(r.code).toBe(0);
      const loaded = readFileSync(log, 'utf8');
      expect(loaded).toContain('/dist/chunks/'); // the log works
      for (const heavy of [
        '/simple-git/',
        '/yargs',
        '/remark',
        '/openai/',
        '/gpt-tokenizer/',
        'tiktoken',
        '/dist/chunks/help-',
        '/dist/chunks/model-',
      ])
        expect(loaded).not.toContain(heavy);
    }
  });
});

describe('handoff hook claude-pre-compact', () => {
  it("writes a handoff that keeps the chain's goal, supersedes the open one and records the transcript", () => {
    const repo = withHandoff('build the teams page');
    const [parent] = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs;
    const hook = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, TRANSCRIPT) });
    expect(hook.code).toBe(0);
    const list = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs;
    expect(list).toHaveLength(2);
    const made = list.find((h: { id: string }) => h.id !== parent.id);
    expect(made.goal).toBe('build the teams page');
    expect(made.step).toMatch(/^continue the agent session \S+ after its compaction$/);
    expect(made.parent).toBe(parent.id);
    expect(list.find((h: { id: string }) => h.id === parent.id).status).toBe('superseded');
    const text = repo.read(made.file);
    expect(text).toMatch(
      /## References\n\n[\s\S]*- Claude Code session transcript: `[^`]*codemie-4c2ddfdc-v2\.0\.64\.jsonl`\n$/,
    );
    expect(text).toContain('`src/teams.ts` (added, untracked)');
    const line = `handoff: wrote ${made.file} before Claude Code compacts (auto); goal: build the teams page; this step: continue the agent session`;
    // Claude Code pastes PreCompact's stdout into the summarizer's prompt as plain text.
    // Then the form of the handoff's sections, which the summary brings back (harvest.test.ts).
    expect(hook.stdout).toMatch(
      new RegExp(
        `^The handoff for the next session is in ${made.file} \\(git-handoff\\); mention that file in the summary.\nKeep these pinned constraints in the summary verbatim, word for word:\n- never touch src/auth\nAt the end of the summary, add these sections in exactly this Markdown form[^\n]*\n## Goal: [\\s\\S]*## Tried and abandoned: [\\s\\S]*\n$`,
      ),
    );
    expect(hook.stderr).toContain(line);
    // The hook firing again for the same compaction writes nothing more.
    const again = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, TRANSCRIPT) });
    expect(again.stdout).toBe(hook.stdout);
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs).toHaveLength(2);
    // A later compaction (a longer transcript) continues the same goal, without stacking prefixes.
    const longer = path.join(tempDir(), 'longer.jsonl');
    writeFileSync(longer, `${readFileSync(TRANSCRIPT, 'utf8')}\n`);
    repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, longer) });
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs).toHaveLength(3);
    const goals = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs.map(
      (h: { goal: string }) => h.goal,
    );
    expect(goals).toEqual(['build the teams page']);
  });

  it("uses the custom instructions as the step when given, and keeps the chain's goal", () => {
    const repo = withHandoff();
    const hook = repo.handoff(['hook', 'claude-pre-compact'], {
      input: claudePreCompact(repo.dir, TRANSCRIPT, 'focus on the billing form'),
    });
    expect(hook.code).toBe(0);
    expect(hook.stderr).toMatch(/\(manual\); goal: .*; this step: focus on the billing form\n/);
  });

  it('redacts a secret typed into the custom instructions before it reaches the goal', () => {
    const repo = withHandoff();
    const fakeKey = 'gh' + 'p_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    const hook = repo.handoff(['hook', 'claude-pre-compact'], {
      input: claudePreCompact(repo.dir, TRANSCRIPT, `use token ${fakeKey} for the deploy`),
    });
    expect(hook.code).toBe(0);
    const made = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs[0];
    expect(made.step).toMatch(/^use token \[REDACTED:github[a-z-]*\] for the deploy$/);
    expect(repo.read(made.file)).not.toContain(fakeKey);
    expect(hook.stdout + hook.stderr).not.toContain(fakeKey);
  });

  it('still writes the handoff when the transcript does not exist, and says so', () => {
    const repo = withHandoff();
    const missing = path.join(tempDir(), 'gone.jsonl');
    const hook = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, missing) });
    expect(hook.code).toBe(0);
    expect(hook.stderr).toContain(
      `handoff: warning: the transcript ${missing} does not exist; the handoff is drafted from git alone`,
    );
    const file = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs[0].file;
    expect(repo.read(file)).toContain(
      `- Claude Code session transcript: \`${missing}\` (it does not exist at the time of this handoff)`,
    );
    const none = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, undefined) });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('Claude Code sent no transcript_path');
  });

  it('shows a transcript under the home directory as ~/..., keeping the user name out of the repository', () => {
    const repo = withHandoff();
    const home = tempDir();
    const transcript = path.join(home, '.claude/projects/-repo/4c2ddfdc.jsonl');
    mkdirSync(path.dirname(transcript), { recursive: true });
    writeFileSync(transcript, readFileSync(TRANSCRIPT));
    expect(
      repo.handoff(['hook', 'claude-pre-compact'], {
        input: claudePreCompact(repo.dir, transcript),
        env: { HOME: home },
      }).code,
    ).toBe(0);
    const file = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs[0].file;
    const text = repo.read(file);
    expect(text).toContain('- Claude Code session transcript: `~/.claude/projects/-repo/4c2ddfdc.jsonl`');
    expect(text).not.toContain(home);
  });

  it('writes nothing on malformed stdin', () => {
    const repo = withHandoff();
    const r = repo.handoff(['hook', 'claude-pre-compact'], { input: 'not json' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(repo.files('.handoff/handoffs')).toHaveLength(1);
  });

  it('every hook that writes a handoff takes empty stdin, {} or a field of the wrong type as malformed: one warning, nothing written', () => {
    const repo = withHandoff();
    const hooks = ['claude', 'codex', 'opencode', 'pi', 'kilo', 'copilot', 'qwen']
      .map((agent) => `${agent}-pre-compact`)
      .concat('gemini-pre-compress', 'cline-task-complete');
    const inputs = ['', '{}', '{"session_id":123,"transcript_path":42}', '{"sessionContext":{"rootSessionId":7}}'];
    for (const name of hooks)
      for (const input of inputs) {
        const r = repo.handoff(['hook', name], { input });
        expect(r.code, `${name} ${input}`).toBe(0);
        expect(r.stdout, `${name} ${input}`).toBe('');
        expect(r.stderr, `${name} ${input}`).toMatch(new RegExp(`^handoff: warning: ${name}: .*; nothing done\n$`));
      }
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs).toHaveLength(1);
  });

  it('a session start still passes the pins on when config.yml cannot be read, and says so; a compaction writes nothing', () => {
    const repo = withHandoff();
    expect(repo.handoff(['pin', 'Never touch the billing tables.']).code).toBe(0);
    repo.write('.handoff/config.yml', 'draft_commits: [\n');
    const start = repo.handoff(['hook', 'claude-session-start'], { input: claudeSessionStart(repo.dir) });
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout);
    expect(out.hookSpecificOutput.additionalContext).toContain('Never touch the billing tables.');
    expect(out.systemMessage).toMatch(
      /^handoff: config\.yml could not be read, the defaults were used: .*invalid YAML/,
    );
    expect(start.stderr).toContain(
      'handoff: warning: config.yml could not be read, this session start used the defaults',
    );
    const pre = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, TRANSCRIPT) });
    expect(pre.code).toBe(0);
    expect(pre.stderr).toMatch(/^handoff: warning: claude-pre-compact: config\.yml could not be read, nothing done: /);
    expect(repo.files('.handoff/handoffs')).toHaveLength(1);
  });
});

describe('handoff hook gemini-*', () => {
  it('answers Gemini CLI SessionStart and PreCompress input', () => {
    const repo = withHandoff();
    const base = {
      session_id: 'c0ffee',
      transcript_path: path.join(TRANSCRIPTS, 'gemini-cli/session-2026-01-16T11-01-file-ops-37b7abef.json'),
      cwd: repo.dir,
      timestamp: '2026-01-16T11:01:00.000Z',
    };
    const start = repo.handoff(['hook', 'gemini-session-start'], {
      input: JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout).hookSpecificOutput.additionalContext).toBe(repo.handoff(['resume']).stdout);
    // PreCompress fires before every model call: far below the threshold, nothing happens.
    const notDue = repo.handoff(['hook', 'gemini-pre-compress'], {
      input: JSON.stringify({ ...base, hook_event_name: 'PreCompress', trigger: 'auto' }),
    });
    expect(notDue.code).toBe(0);
    expect(notDue.stdout).toBe('');
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs).toHaveLength(1);
    const compress = repo.handoff(['hook', 'gemini-pre-compress'], {
      input: JSON.stringify({ ...base, hook_event_name: 'PreCompress', trigger: 'manual' }),
    });
    expect(compress.code).toBe(0);
    expect(JSON.parse(compress.stdout).systemMessage).toMatch(
      /before Gemini CLI compacts \(manual\); goal: build the teams page; this step: .*$/,
    );
    const file = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs[0].file;
    expect(repo.read(file)).toContain('- Gemini CLI session transcript: `');
  });
});

describe('compaction hooks: pins verbatim, Gemini only when a compression is due', () => {
  it('Claude Code PreCompact tells the summarizer the pins word for word, markup and all', () => {
    const repo = withHandoff();
    const pin = 'Keep <Widget> & "quoted" names exactly as written.';
    expect(repo.handoff(['pin', pin]).code).toBe(0);
    const hook = repo.handoff(['hook', 'claude-pre-compact'], { input: claudePreCompact(repo.dir, TRANSCRIPT) });
    expect(hook.stdout).toContain(
      `Keep these pinned constraints in the summary verbatim, word for word:\n- never touch src/auth\n- ${pin}\n`,
    );
  });

  it('Gemini CLI PreCompress writes a handoff once the session passed half of the window', () => {
    const repo = withHandoff();
    const chat = path.join(tempDir(), 'session-2026-11-20T10-00-abcd1234.jsonl');
    const lines = [
      { sessionId: 'g-due', projectHash: 'abc', startTime: '2026-11-20T10:00:00Z', kind: 'main' },
      { id: '1', type: 'user', content: [{ text: 'Go on.' }] },
      { id: '2', type: 'gemini', content: 'ok', tokens: { input: 600_000 }, model: 'gemini-2.5-pro' },
    ];
    writeFileSync(chat, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const input = JSON.stringify({
      session_id: 'g-due',
      transcript_path: chat,
      cwd: repo.dir,
      hook_event_name: 'PreCompress',
      trigger: 'auto',
    });
    const hook = repo.handoff(['hook', 'gemini-pre-compress'], { input });
    expect(JSON.parse(hook.stdout).systemMessage).toMatch(/before Gemini CLI compacts \(auto\)/);
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs).toHaveLength(2);
  });
});

describe('handoff hook claude-meter (opt-in)', () => {
  it('suggests a handoff once per session when the last reply passed the threshold', () => {
    const repo = withHandoff();
    repo.write('.handoff/config.yml', 'meter_threshold: 15\n');
    // The fixture's last assistant reply filled 6 + 132 + 36,388 = 36,526 tokens of Claude's 200,000.
    const stop = JSON.stringify({
      session_id: 'meter-1',
      transcript_path: TRANSCRIPT,
      cwd: repo.dir,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    const env = { TMPDIR: tempDir() };
    const first = repo.handoff(['hook', 'claude-meter'], { input: stop, env });
    expect(first.code).toBe(0);
    const line =
      'handoff: Claude Code\'s context is at 18% (36,526 of 200,000 tokens); consider `handoff new "<next goal>"` and a fresh session before it compacts';
    expect(JSON.parse(first.stdout)).toEqual({ systemMessage: line });
    // One formula: `handoff meter` on the same transcript says the same.
    const meter = JSON.parse(repo.handoff(['meter', '--json', '--force', '--from', TRANSCRIPT]).stdout);
    expect(meter.context).toMatchObject({ tokens: 36526, window: 200000 });
    expect(Math.round(meter.context.percent)).toBe(18);
    const second = repo.handoff(['hook', 'claude-meter'], { input: stop, env });
    expect(second).toEqual({ code: 0, stdout: '', stderr: '' });
    repo.write('.handoff/config.yml', 'meter_threshold: 50\n');
    const below = repo.handoff(['hook', 'claude-meter'], { input: stop.replace('meter-1', 'meter-2'), env });
    expect(below).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
