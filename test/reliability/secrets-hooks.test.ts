// Secrets in a handoff written by hand (or by an older version) never reach an agent
// through the session-start hook; the hook says nothing of them on stdout but the
// redaction marker.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers.js';

describe('secrets and the agent session-start hook', () => {
  it('redacts what a hand-edited handoff carries before the agent sees it', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'ship the deploy script', '--no-edit']).stdout.trim();
    const token = 'gh' + 'p_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa';
    repo.write(file, repo.read(file).replace('## Next steps\n', `## Next steps\n\n- deploy with ${token}\n`));
    const input = JSON.stringify({
      session_id: 's',
      transcript_path: '/nonexistent.jsonl',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const hook = repo.handoff(['hook', 'claude-session-start'], { input });
    expect(hook.code).toBe(0);
    const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('deploy with [REDACTED:');
    expect(hook.stdout + hook.stderr).not.toContain(token);
    expect(hook.stdout + hook.stderr).not.toContain(token.slice(-12));
  });

  it('redacts it at every session start: a prompt with a secret is never remembered as clean', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'rotate the keys', '--no-edit']).stdout.trim();
    expect(repo.handoff(['resume']).code).toBe(0); // the clean prompt is remembered
    const token = 'gh' + 'p_' + 'Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pa0SdFgHjKl';
    repo.write(file, repo.read(file).replace('## Next steps\n', `## Next steps\n\n- push with ${token}\n`));
    for (let run = 0; run < 3; run++) {
      const r = repo.handoff(['resume', '--json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('handoff: redacted 1 secret (github-pat) from the resume prompt');
      expect(r.stdout).toContain('push with [REDACTED:');
      expect(r.stdout).not.toContain(token.slice(-12));
    }
    const cache = JSON.parse(readFileSync(path.join(repo.dir, '.git/handoff-clean.json'), 'utf8')) as {
      clean: string[];
    };
    expect(cache.clean.length).toBeGreaterThan(0);
    expect(cache.clean.filter((t) => t.includes(token.slice(-12)) || t.includes('[REDACTED'))).toEqual([]);
    // Put back as it was: the remembered clean prompt again, with nothing redacted.
    repo.write(file, repo.read(file).replace(`\n- push with ${token}\n`, ''));
    const clean = repo.handoff(['resume']);
    expect(clean.stderr).not.toContain('redacted');
    expect(clean.stdout).not.toContain('push with');
  });
});
