// Bounded input wherever a hook runs: a size limit per handoff and pin, a line limit per
// transcript, and a session-start time budget that sends the pins and a pointer instead
// of being killed. A hook exits 0 and leaves no lock whatever it was given.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from './helpers.js';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';

const sessionStart = (cwd: string) =>
  JSON.stringify({ session_id: 's1', cwd, hook_event_name: 'SessionStart', source: 'startup' });
const MiB = 1024 * 1024;

/** Bytes of every cache file in the git directory (handoff-*, files and folders). */
function cacheBytes(gitDir: string): number {
  let total = 0;
  for (const e of readdirSync(gitDir, { recursive: true, withFileTypes: true }))
    if (e.isFile() && path.relative(gitDir, path.join(e.parentPath, e.name)).startsWith('handoff'))
      total += statSync(path.join(e.parentPath, e.name)).size;
  return total;
}

describe('size limits', () => {
  it('a handoff or pin over 1 MiB is skipped with a one-line warning and never cached', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }, `## Goal\n\n${'word '.repeat(MiB / 2)}\n`));
    repo.write(pinPath(id(2)), pinText({ id: id(2) }, 'x'.repeat(2 * MiB)));
    repo.write(pinPath(id(3)), pinText({ id: id(3) }, 'never touch src/auth'));
    // `roadmap` names them too, and writes nothing while they cannot be read.
    for (const args of [['list'], ['pins'], ['resume'], ['roadmap']]) {
      const r = repo.handoff(args);
      if (args[0] !== 'pins')
        expect(r.stderr, args[0]).toMatch(
          new RegExp(`${handoffPath(id(1))}: is \\d+ bytes; expected at most 1048576 \\(1 MiB\\) for a handoff or pin`),
        );
      if (args[0] !== 'list')
        expect(r.stderr).toContain(`${pinPath(id(2))}: is ${2 * MiB + pinText({ id: id(2) }, '').length} bytes`);
      expect(r.stderr).not.toContain('internal error');
    }
    expect(repo.handoff(['pins']).stdout).toContain('never touch src/auth');
    const hook = repo.handoff(['hook', 'claude-session-start'], { input: sessionStart(repo.dir) });
    expect(hook.code).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('never touch src/auth');
    // Nothing of the large files went into the cache (a work-tree file's key is its text).
    expect(cacheBytes(path.join(repo.dir, '.git'))).toBeLessThan(MiB / 4);
    // `check` reads the same files from git: refused there too.
    repo.commit('large');
    expect(repo.handoff(['check']).stdout + repo.handoff(['check']).stderr).toContain('expected at most 1048576');
  });

  it('a pin or handoff body over 1 MiB is refused before anything is written', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const pin = repo.handoff(['pin'], { input: 'y'.repeat(MiB + 1) });
    expect(pin.code).toBe(1);
    expect(pin.stderr).toMatch(
      /^handoff: \.handoff\/pins\/[0-9a-z]{26}\.md: would be \d+ bytes; a handoff or pin may be at most 1048576 \(1 MiB\): nothing written\n$/,
    );
    const made = repo.handoff(['new', 'big', '--no-edit', '-F', '-'], { input: `## Goal\n\n${'z'.repeat(MiB)}\n` });
    expect(made.code).toBe(1);
    expect(made.stderr).toContain('nothing written');
    expect(repo.files('.handoff/pins')).toEqual([]);
    expect(repo.files('.handoff/handoffs')).toEqual([]);
  });
});

describe('session-start time budget', () => {
  it('past the budget the hook sends the pins verbatim and a pointer, and exits 0', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'ship the teams page' }));
    repo.write(pinPath(id(2)), pinText({ id: id(2) }, 'never touch src/auth'));
    const spent = repo.handoff(['hook', 'claude-session-start'], {
      input: sessionStart(repo.dir),
      env: { HANDOFF_SESSION_BUDGET_MS: '0' },
    });
    expect(spent.code).toBe(0);
    const out = JSON.parse(spent.stdout);
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context).toContain('```text\nnever touch src/auth\n```');
    expect(context).toContain("was not ready within this hook's time budget (0 ms)");
    expect(context).toContain('run `handoff resume`');
    expect(context).not.toContain('ship the teams page');
    expect(spent.stderr).toBe(
      'handoff: the resume prompt was not ready within 0 ms; sent the pins and a pointer to `handoff resume` to Claude Code\n',
    );
    expect(out.systemMessage).toBe(spent.stderr.trim());
    // Within the budget: the whole prompt.
    const whole = repo.handoff(['hook', 'claude-session-start'], { input: sessionStart(repo.dir) });
    expect(JSON.parse(whole.stdout).hookSpecificOutput.additionalContext).toContain('ship the teams page');
  });
});

describe('transcript line limit', () => {
  it('a transcript line over 64 MiB: the pre-compact hook drafts from git alone, exits 0, leaves no lock', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const transcript = path.join(tempDir(), 'session.jsonl');
    const first = JSON.stringify({
      type: 'user',
      message: { role: 'user', content: 'hi' },
      sessionId: 's1',
      cwd: repo.dir,
      timestamp: '2026-01-05T10:00:00.000Z',
      uuid: 'u1',
    });
    writeFileSync(transcript, `${first}\n{"type":"user","x":"${'a'.repeat(65 * MiB)}"}\n`);
    const r = repo.handoff(['hook', 'claude-pre-compact'], {
      input: JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: repo.dir, trigger: 'auto' }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `${transcript}: line 2 is longer than 64 MiB; expected a transcript of shorter records; drafting from git alone`,
    );
    expect(r.stderr).not.toContain('RangeError');
    expect(repo.files('.handoff/handoffs')).toHaveLength(1);
    expect(existsSync(path.join(repo.dir, '.git/handoff.lock'))).toBe(false);
  });
});
