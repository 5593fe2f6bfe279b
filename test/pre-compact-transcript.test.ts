// PreCompact with the session's own transcript: the handoff written at compaction keeps
// what git cannot know (the todo list, decisions, the user's constraints as candidates).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantText, tool, user } from './claude-lines.js';
import { makeRepo, tempDir } from './helpers.js';

describe('handoff hook claude-pre-compact with this session transcript', () => {
  it('drafts from the transcript, not from git alone', () => {
    const repo = makeRepo();
    repo.handoff(['new', 'build the teams page', '--no-edit']);
    const e = { cwd: repo.dir };
    const transcript = path.join(tempDir(), 'session.jsonl');
    const lines = [
      user(e, 'Build the teams page. Never touch src/auth/session.ts.'),
      assistantText(e, 'We will use a Map instead of an array because lookups by team id dominate.'),
      tool(
        e,
        'TodoWrite',
        {
          todos: [
            { content: 'Create the teams model', status: 'completed', activeForm: 'Creating' },
            { content: 'Write the teams tests', status: 'pending', activeForm: 'Writing' },
          ],
        },
        't1',
      ),
    ];
    writeFileSync(transcript, `${lines.join('\n')}\n`);
    const input = JSON.stringify({
      session_id: 's1',
      transcript_path: transcript,
      cwd: repo.dir,
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: '',
    });
    const hook = repo.handoff(['hook', 'claude-pre-compact'], { input });
    expect(hook.code).toBe(0);
    expect(hook.stderr).not.toContain('warning');
    const [made] = JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs;
    expect(made.goal).toBe('build the teams page');
    const body = repo.read(made.file);
    expect(body).toMatch(/## Next steps\n\n- Write the teams tests/);
    expect(body).toContain('Create the teams model');
    expect(body).toContain('Never touch src/auth/session.ts.');
    expect(body).toContain('use a Map instead of an array because lookups by team id dominate');
  });

  it("keeps the user's request as the goal through three compactions, with no handoff before them", () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const e = { cwd: repo.dir };
    const compact = (session: string, lines: string[]) => {
      const transcript = path.join(tempDir(), `${session}.jsonl`);
      writeFileSync(transcript, `${lines.join('\n')}\n`);
      const input = JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: repo.dir,
        hook_event_name: 'PreCompact',
        trigger: 'auto',
        custom_instructions: '',
      });
      expect(repo.handoff(['hook', 'claude-pre-compact'], { input }).code).toBe(0);
      return JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs[0];
    };
    const first = compact('s1', [user(e, 'Add CSV export to the invoices page.\nKeep it small.')]);
    expect(first.goal).toBe('Add CSV export to the invoices page.');
    expect(first.step).toBe('continue the agent session s1 after its compaction');
    // The next agents' sessions start from a summary: their first turns are not the request.
    const second = compact('s2', [user(e, 'This session is being continued from a previous conversation.')]);
    const third = compact('s3', [user(e, 'keep going')]);
    expect([second.goal, third.goal]).toEqual([first.goal, first.goal]);
    expect(third.step).toBe('continue the agent session s3 after its compaction');
    const prompt = repo.handoff(['resume']).stdout;
    expect(prompt).toContain(
      '```text\nAdd CSV export to the invoices page.\n```\n\nThis step: continue the agent session s3',
    );
  });
});
