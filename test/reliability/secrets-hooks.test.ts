// Secrets in a handoff written by hand (or by an older version) never reach an agent
// through the session-start hook; the hook says nothing of them on stdout but the
// redaction marker.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers.js';

describe('secrets and the agent session-start hook', () => {
  it('redacts what a hand-edited handoff carries before the agent sees it', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'ship the deploy script', '--no-edit']).stdout.trim();
    const token = 'gh' + 'p_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa';
    repo.write(file, repo.read(file).replace('## Next steps\n', `## Next steps\n\n- deploy with ${token}\n`));
    const input = JSON.stringify({ session_id: 's', transcript_path: '/nonexistent.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    const hook = repo.handoff(['hook', 'claude-session-start'], { input });
    expect(hook.code).toBe(0);
    const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('deploy with [REDACTED:');
    expect(hook.stdout + hook.stderr).not.toContain(token);
    expect(hook.stdout + hook.stderr).not.toContain(token.slice(-12));
  });
});
