// Pins reach every session: with no open handoff, `resume` and the session-start hook
// still hand over the pins; one long pin never costs the agent the short ones.
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';
import { fitPins, sessionContext } from '../src/resume/session-context.js';
import { pinsOnlyParts, promptPins } from '../src/resume/prompt.js';
import type { Pin } from '../src/store/pin.js';

const hookInput = (cwd: string) =>
  JSON.stringify({ session_id: 's1', cwd, hook_event_name: 'SessionStart', source: 'startup' });

const pin = (id: string, text: string): Pin => ({
  file: `.handoff/pins/${id}.md`,
  meta: { id, created: '2026-01-01T00:00:00.000Z', author: 'a', status: 'active' },
  doc: undefined as never,
  text,
});

describe('resume with no open handoff', () => {
  it('prints the pins alone and exits 0; with no pins it still fails', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const none = repo.handoff(['resume']);
    expect(none.code).toBe(1);
    repo.handoff(['pin', 'never touch src/auth']);
    repo.git('checkout', '-q', '-b', 'feature');
    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('```text\nnever touch src/auth\n```');
    expect(resume.stdout).toContain("no open handoff on branch 'feature'");
    expect(resume.stderr).toContain("no open handoff on branch 'feature'; printing the 1 pinned constraint alone");
    const json = JSON.parse(repo.handoff(['resume', '--json']).stdout);
    expect(json.id).toBeNull();
    expect(json.pins.map((p: { text: string }) => p.text)).toEqual(['never touch src/auth']);
  });

  it('the session-start hook injects the pins with no handoff', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'always run npm test before committing']);
    const hook = repo.handoff(['hook', 'claude-session-start'], { input: hookInput(repo.dir) });
    expect(hook.code).toBe(0);
    const out = JSON.parse(hook.stdout);
    expect(out.hookSpecificOutput.additionalContext).toContain('always run npm test before committing');
    expect(hook.stderr).toContain('no open handoff; passed the 1 pinned constraint');
  });

  it('a very long pin is pointed to by its file; the short pins stay verbatim, shortest first', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'never touch src/auth']);
    const long = repo.handoff(['pin', 'L'.repeat(12_000)]).stdout.match(/(\.handoff\/pins\/\S+\.md)/)![1]!;
    repo.handoff(['pin', 'use pnpm, not npm, for every install']);
    repo.handoff(['new', 'work', '--no-edit']);
    const out = JSON.parse(repo.handoff(['hook', 'claude-session-start'], { input: hookInput(repo.dir) }).stdout);
    const text: string = out.hookSpecificOutput.additionalContext;
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toContain(`Read \`${long}\` now and follow it exactly`);
    expect(text.indexOf('never touch src/auth')).toBeGreaterThan(0);
    expect(text.indexOf('never touch src/auth')).toBeLessThan(text.indexOf('use pnpm, not npm'));
    expect(out.systemMessage).toContain('1 pin too long alone');
  });
});

describe('fitPins', () => {
  it('keeps every pin that fits verbatim and points to the rest', () => {
    const fitted = fitPins(promptPins([pin('b', 'x'.repeat(500)), pin('a', 'short')]), 400)!;
    expect(fitted.pointed).toBe(1);
    expect(fitted.text).toContain('```text\nshort\n```');
    expect(fitted.text).toContain('Read `.handoff/pins/b.md` now');
    expect(fitPins(promptPins([pin('a', 'x')]), 10)).toBeNull();
  });

  it('a pins-only prompt over the limit sends only pins', () => {
    const parts = pinsOnlyParts([pin('a', 'short'), pin('b', 'y'.repeat(20_000))], 'no open handoff');
    const ctx = sessionContext('z'.repeat(20_100), parts);
    expect(ctx.form).toBe('pins');
    expect(ctx.pointedPins).toBe(1);
    expect(ctx.text).toContain('```text\nshort\n```');
  });
});
