// The integrations for pi 1.5, Copilot CLI, Cline, Kilo and Qwen Code: what install puts
// where (and uninstall takes away), and their hook entry points fed the JSON each agent sends.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type Repo } from './helpers.js';

const PIN = 'Keep <Widget> & "quoted" names exactly as written.';

function withPin(): { repo: Repo; env: { HOME: string } } {
  const repo = makeRepo();
  const env = { HOME: tempDir('handoff-home-') };
  expect(repo.handoff(['init'], { env }).code).toBe(0);
  expect(repo.handoff(['pin', PIN], { env }).code).toBe(0);
  return { repo, env };
}

describe('handoff agent install: the five added agents', () => {
  it('copilot: a hook file, a skill and the pins in copilot-instructions.md, all taken away by uninstall', () => {
    const { repo, env } = withPin();
    const r = repo.handoff(['agent', 'install', 'copilot'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('handoff: note: Copilot CLI runs hooks only in a trusted folder');
    const hooks = JSON.parse(repo.read('.github/hooks/git-handoff.json'));
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.sessionStart).toEqual([
      { type: 'command', bash: expect.stringMatching(/^handoff_hook=copilot-session-start; /), timeoutSec: 30 },
    ]);
    expect(hooks.hooks.preCompact).toEqual([
      { type: 'command', bash: expect.stringMatching(/^handoff_hook=copilot-pre-compact; /), timeoutSec: 60 },
    ]);
    expect(repo.read('.github/copilot-instructions.md')).toContain(PIN);
    expect(repo.read('.github/skills/handoff/SKILL.md')).toMatch(/^---\nname: handoff\n/);
    expect(repo.handoff(['agent', 'install', 'copilot'], { env }).stderr).toContain(
      '.github/hooks/git-handoff.json: already current; nothing changed',
    );
    expect(repo.handoff(['agent', 'uninstall', 'copilot'], { env }).code).toBe(0);
    expect(repo.files('.github')).toEqual([]);
  });

  it('cline: executable TaskStart and TaskComplete hooks, a /handoff workflow and a rules file with the pins', () => {
    const { repo, env } = withPin();
    expect(repo.handoff(['agent', 'install', 'cline'], { env }).code).toBe(0);
    for (const [event, name] of [
      ['TaskStart', 'cline-task-start'],
      ['TaskComplete', 'cline-task-complete'],
    ]) {
      const file = path.join(repo.dir, '.clinerules/hooks', event!);
      expect(repo.read(`.clinerules/hooks/${event}`)).toMatch(
        new RegExp(`^#!/bin/sh\\n# git-handoff: .*\\nhandoff_hook=${name}; .*\\n$`),
      );
      expect(statSync(file).mode & 0o111).toBe(0o111);
    }
    expect(repo.read('.clinerules/git-handoff.md')).toContain(PIN);
    expect(repo.read('.clinerules/workflows/handoff.md')).toContain('--from auto --no-edit');
    expect(repo.handoff(['agent', 'uninstall', 'cline'], { env }).code).toBe(0);
    expect(repo.files('.clinerules')).toEqual([]);
  });

  it("kilo: OpenCode's plugin under .kilo/plugin/, which picks Kilo's hooks and database there", () => {
    const { repo, env } = withPin();
    expect(repo.handoff(['agent', 'install', 'kilo'], { env }).code).toBe(0);
    const plugin = repo.read('.kilo/plugin/git-handoff.js');
    expect(plugin).toMatch(/includes\('\.kilo'\)\s*\? 'kilo'\s*: 'opencode'/);
    expect(plugin).toContain('`${app}-pre-compact`');
    expect(plugin).toMatch(/"kilo-session-start": "handoff_hook=kilo-session-start; /);
    expect(repo.read('.kilo/command/handoff.md')).toContain('handoff new "$ARGUMENTS" --from auto --no-edit');
    expect(repo.read('AGENTS.md')).toContain('<!-- git-handoff:start -->');
  });

  it('qwen: Claude-style hooks in .qwen/settings.json, the pins in QWEN.md, /handoff as a command', () => {
    const { repo, env } = withPin();
    expect(repo.handoff(['agent', 'install', 'qwen'], { env }).code).toBe(0);
    const settings = JSON.parse(repo.read('.qwen/settings.json'));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toMatch(/^handoff_hook=qwen-session-start; /);
    expect(settings.hooks.PreCompact[0].hooks[0].command).toMatch(/^handoff_hook=qwen-pre-compact; /);
    expect(repo.read('QWEN.md')).toContain(PIN);
    expect(repo.read('.qwen/commands/handoff.toml')).toContain('{{args}}');
    expect(repo.handoff(['agent', 'uninstall', 'qwen'], { env }).code).toBe(0);
    // A settings file that held only our hooks goes with them.
    expect(repo.files('.qwen')).toEqual([]);
  });

  it('pi: says how to trust the project until pi trusts it, and installs a /handoff prompt template', () => {
    const { repo, env } = withPin();
    const r = repo.handoff(['agent', 'install', 'pi'], { env });
    expect(r.stderr).toContain('handoff: .pi/prompts/handoff.md: added for pi');
    expect(r.stderr).toContain('this project is not trusted yet: run /trust in pi here');
    expect(repo.handoff(['agent', 'status', 'pi'], { env }).stdout).toContain('note: pi 1.5 and later load');
    // The user's decision, as pi's /trust saves it, for a folder above the repository.
    mkdirSync(path.join(env.HOME, '.pi/agent'), { recursive: true });
    writeFileSync(path.join(env.HOME, '.pi/agent/trust.json'), JSON.stringify({ [path.dirname(repo.dir)]: true }));
    expect(repo.handoff(['agent', 'install', 'pi'], { env }).stderr).not.toContain('note:');
    expect(repo.handoff(['agent', 'status', 'pi'], { env }).stdout).not.toContain('note:');
    // A nearer decision wins.
    writeFileSync(
      path.join(env.HOME, '.pi/agent/trust.json'),
      JSON.stringify({ [path.dirname(repo.dir)]: true, [repo.dir]: false }),
    );
    expect(repo.handoff(['agent', 'status', 'pi'], { env }).stdout).toContain('note: pi 1.5 and later load');
  });
});

describe('the hook entry points of the five added agents', () => {
  it('copilot-session-start answers a top-level additionalContext (the only form Copilot CLI passes on) and refreshes the pins block', () => {
    const { repo, env } = withPin();
    repo.handoff(['agent', 'install', 'copilot'], { env });
    repo.handoff(['pin', 'A second pin, set after install.'], { env });
    const input = JSON.stringify({ sessionId: 'e79c', timestamp: 1795496879485, cwd: repo.dir, source: 'new' });
    const r = repo.handoff(['hook', 'copilot-session-start'], { env, input });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput).toBeUndefined();
    expect(out.additionalContext).toContain(PIN);
    // `pin` brings installed blocks up to date itself; the hook would after a merge.
    expect(repo.read('.github/copilot-instructions.md')).toContain('A second pin, set after install.');
  });

  it('copilot-pre-compact reads the camelCase payload: one handoff per compaction, from the transcript it names', () => {
    const { repo, env } = withPin();
    const transcript = path.resolve(__dirname, 'fixtures/transcripts/copilot/copilot-1.0.102-sum.events.jsonl');
    const input = JSON.stringify({
      sessionId: '3ead',
      timestamp: 1795496879485,
      cwd: repo.dir,
      transcriptPath: transcript,
      trigger: 'manual',
      customInstructions: 'finish the sum helper',
    });
    const first = repo.handoff(['hook', 'copilot-pre-compact'], { env, input });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).systemMessage).toMatch(
      /^handoff: wrote .* before Copilot CLI compacts \(manual\); goal: .*finish the sum helper$/,
    );
    const again = repo.handoff(['hook', 'copilot-pre-compact'], { env, input });
    expect(again.stderr).toContain('was written for this compaction already');
    expect(repo.files('.handoff/handoffs')).toHaveLength(1);
  });

  it('qwen-pre-compact hands the summarizer the pins as PreCompact additionalContext', () => {
    const { repo, env } = withPin();
    const input = JSON.stringify({ session_id: '598f', cwd: repo.dir, hook_event_name: 'PreCompact', trigger: 'auto' });
    const r = repo.handoff(['hook', 'qwen-pre-compact'], { env, input });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('PreCompact');
    expect(out.hookSpecificOutput.additionalContext).toContain(`- ${PIN}`);
    expect(out.hookSpecificOutput.additionalContext).toMatch(
      /^The handoff for the next session is in \.handoff\/handoffs\//,
    );
    // The summarizer is asked for the handoff's sections, which the next session start folds in.
    expect(out.hookSpecificOutput.additionalContext).toContain('git-handoff reads them into the handoff');
    expect(out.hookSpecificOutput.additionalContext).toContain('## Decisions: "- <decision> — why: <reason>"');
  });

  it("qwen-pre-compact past Qwen Code's 4,000 characters: the pins are left to QWEN.md, the section form still goes", () => {
    const { repo, env } = withPin();
    expect(repo.handoff(['pin', `Keep this long rule: ${'every word matters here. '.repeat(160)}`], { env }).code).toBe(
      0,
    );
    const input = JSON.stringify({ session_id: '598f', cwd: repo.dir, hook_event_name: 'PreCompact', trigger: 'auto' });
    const r = repo.handoff(['hook', 'qwen-pre-compact'], { env, input });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context.length).toBeLessThanOrEqual(4000);
    expect(context).not.toContain(PIN);
    expect(context).toContain('git-handoff reads them into the handoff');
    expect(out.systemMessage).toContain('QWEN.md carries them');
  });

  it('cline-task-complete writes one handoff for a compaction the task went through, and none without one', () => {
    const { repo, env } = withPin();
    const data = path.join(env.HOME, '.cline/data/sessions/1795497091368_vmo97');
    mkdirSync(data, { recursive: true });
    const transcript = path.resolve(__dirname, 'fixtures/transcripts/cline/cline-3.0.65-sum.messages.json');
    writeFileSync(path.join(data, '1795497091368_vmo97.messages.json'), readFileSync(transcript));
    const input = JSON.stringify({
      clineVersion: '',
      taskId: 'conv_1795497091636_z3sac45',
      sessionContext: { rootSessionId: '1795497091368_vmo97' },
      workspaceRoots: [repo.dir],
      hookName: 'agent_end',
      taskComplete: { taskMetadata: {} },
    });
    const none = repo.handoff(['hook', 'cline-task-complete'], { env, input });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('{}\n');
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    writeFileSync(path.join(data, '1795497091368_vmo97.compaction.json'), '{}\n');
    const wrote = repo.handoff(['hook', 'cline-task-complete'], { env, input });
    expect(wrote.stderr).toMatch(/handoff: wrote .* after Cline compacted this task/);
    expect(repo.handoff(['hook', 'cline-task-complete'], { env, input }).stderr).not.toContain('wrote');
    expect(repo.files('.handoff/handoffs')).toHaveLength(1);
  });

  it("cline-task-complete folds the summary Cline's compaction left in its compaction file", () => {
    const { repo, env } = withPin();
    const data = path.join(env.HOME, '.cline/data/sessions/1795497091368_vmo97');
    mkdirSync(data, { recursive: true });
    const transcript = path.resolve(__dirname, 'fixtures/transcripts/cline/cline-3.0.65-sum.messages.json');
    writeFileSync(path.join(data, '1795497091368_vmo97.messages.json'), readFileSync(transcript));
    // The shape @cline/core (cline 3.0.65) writes: the compacted conversation, opening with
    // the summary message its agentic compaction builds (the summary text is made up).
    const summary =
      'The user wants a sum helper. We decided to export sum from src/sum.js, because the tests import it. Taking an array argument did not work, so I dropped it.';
    const compaction = {
      version: 1,
      updated_at: '2026-11-24T07:30:00.000Z',
      source_message_count: 6,
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: `Context summary:\n\n${summary}` }],
          metadata: {
            kind: 'compaction_summary',
            displayRole: 'system',
            userRunSpan: 1,
            summary,
            details: { readFiles: [], modifiedFiles: ['src/sum.js'] },
            tokensBefore: 30000,
            generatedAt: 1795505400000,
          },
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ],
    };
    writeFileSync(path.join(data, '1795497091368_vmo97.compaction.json'), JSON.stringify(compaction, null, 2));
    const input = JSON.stringify({
      taskId: 'conv_1795497091636_z3sac45',
      sessionContext: { rootSessionId: '1795497091368_vmo97' },
      hookName: 'agent_end',
    });
    const r = repo.handoff(['hook', 'cline-task-complete'], { env, input });
    expect(r.code, r.stderr).toBe(0);
    const [file] = repo.files('.handoff/handoffs');
    const rel = path.join('.handoff/handoffs', file!);
    expect(r.stderr).toContain(
      `handoff: folded Cline's summary of session 1795497091368_vmo97 into ${rel} (2 items; read from its prose: it has none of the handoff's sections)`,
    );
    const body = repo.read(rel);
    expect(body).toContain(
      'We decided to export sum from src/sum.js, because the tests import it. (summary of Cline session 1795497091368_vmo97)',
    );
    expect(body).toContain(
      'Taking an array argument did not work, so I dropped it. (summary of Cline session 1795497091368_vmo97)',
    );
  });

  it('cline-task-start brings the pins in the rules file up to date, since its output reaches nothing', () => {
    const { repo, env } = withPin();
    repo.handoff(['agent', 'install', 'cline'], { env });
    repo.handoff(['pin', 'A second pin, set after install.'], { env });
    const r = repo.handoff(['hook', 'cline-task-start'], { env, input: '{"hookName":"agent_start"}' });
    expect(r.stdout).toBe('{}\n');
    expect(repo.read('.clinerules/git-handoff.md')).toContain('A second pin, set after install.');
  });
});
