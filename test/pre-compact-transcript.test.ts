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
    expect(made.goal).toBe('continue: build the teams page');
    const body = repo.read(made.file);
    expect(body).toMatch(/## Next steps\n\n- Write the teams tests/);
    expect(body).toContain('Create the teams model');
    expect(body).toContain('Never touch src/auth/session.ts.');
    expect(body).toContain('use a Map instead of an array because lookups by team id dominate');
  });
});
