// The pure parts of the agent integrations: blocks, settings edits, the session-start
// budget, hook input and the usage read. Round trips are checked over generated input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastUsage } from '../src/agents/claude-usage.js';
import { addToSections } from '../src/handoff/draft-additions.js';
import { addHooks, removeHooks } from '../src/agents/hook-settings.js';
import { compactionStep, parseHookInput } from '../src/agents/hook-input.js';
import { chainGoal, firstRequest } from '../src/handoff/goal.js';
import { BLOCK_END, BLOCK_START, removeBlock, upsertBlock } from '../src/agents/marked-block.js';
import type { ResumeParts } from '../src/resume/prompt.js';
import { AGENTS } from '../src/agents/agents.js';
import { installWrites, verifyAgent, type PlanInput } from '../src/agents/agent-plan.js';
import { hookCommand } from '../src/agents/hook-command.js';
import { sessionContext } from '../src/resume/session-context.js';

const lineText = fc.stringMatching(/^[^\r\n<]{0,40}$/);
const docText = (eol: string) =>
  fc.array(lineText, { maxLength: 8 }).map((lines) => (lines.length ? `${lines.join(eol)}${eol}` : ''));

describe('marked blocks', () => {
  it('install then uninstall gives back the file byte for byte (LF and CRLF), and install is idempotent', () => {
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n').chain(docText), lineText, (text, content) => {
        const once = upsertBlock(text, `## Handoffs\n\n${content}\n`, 'AGENTS.md');
        expect(once.text.startsWith(text)).toBe(true);
        expect(upsertBlock(once.text, `## Handoffs\n\n${content}\n`, 'AGENTS.md').action).toBe('unchanged');
        expect(removeBlock(once.text, 'AGENTS.md')).toBe(text);
        if (text.includes('\r\n')) expect(once.text.replace(/\r\n/g, '')).not.toContain('\n');
      }),
      { seed: 23 },
    );
  });

  it('keeps text on both sides of an updated block, and places the block first past the limit', () => {
    const text = `intro\n\n${BLOCK_START}\nold\n${BLOCK_END}\n\nafter\n`;
    expect(upsertBlock(text, 'new', 'F').text).toBe(`intro\n\n${BLOCK_START}\nnew\n${BLOCK_END}\n\nafter\n`);
    const big = `${'x'.repeat(100)}\n`;
    const first = upsertBlock(big, 'new', 'F', 64);
    expect(first.text).toBe(`${BLOCK_START}\nnew\n${BLOCK_END}\n\n${big}`);
    expect(first.note).toContain('placed first');
    expect(removeBlock(first.text, 'F')).toBe(big);
    expect(() => upsertBlock(`${BLOCK_END}\n${BLOCK_START}\n`, 'x', 'F')).toThrow(/^F: expected one/);
  });
});

describe('settings hooks', () => {
  const ours = { event: 'SessionStart', matcher: 'startup', command: 'handoff hook claude-session-start', timeout: 30 };
  // Containers that held only our hooks are removed with them, so an empty "hooks" object
  // or empty event list the user had is not restored; the generator leaves those out.
  it('add then remove restores generated settings exactly', () => {
    const settings = fc.record({
      model: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      hooks: fc.option(
        fc.dictionary(
          fc.constantFrom('SessionStart', 'PreCompact', 'Stop'),
          fc.array(
            fc.record({
              matcher: fc.string({ maxLength: 5 }),
              hooks: fc.array(
                fc.record({ type: fc.constant('command'), command: fc.constantFrom('echo a', 'npm test') }),
                { minLength: 1, maxLength: 2 },
              ),
            }),
            { minLength: 1, maxLength: 2 },
          ),
          { minKeys: 1 },
        ),
        { nil: undefined },
      ),
    });
    fc.assert(
      // Any layout a person might keep: one line, tabs, or nested objects written inline.
      fc.property(settings, fc.constantFrom<number | string>(0, 2, 4, '\t', 'inline'), (value, indent) => {
        const text =
          indent === 'inline' && Object.values(value).some((v) => v !== undefined)
            ? `{\n${Object.entries(value)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
                .join(',\n')}\n}\n`
            : `${JSON.stringify(value, null, indent === 'inline' ? 2 : indent)}\n`;
        const added = addHooks(text, [ours, { event: 'PreCompact', command: 'handoff hook claude-pre-compact' }], 'S');
        expect(added.added).toHaveLength(2);
        expect(addHooks(added.text, [ours], 'S').added).toHaveLength(0);
        const removed = removeHooks(added.text, (c) => c.startsWith('handoff hook '), 'S');
        expect(removed.removed).toHaveLength(2);
        expect(removed.text).toBe(text);
        // Adding only inserts: the user's text is all still there, in order, byte for byte.
        let kept = 0;
        for (const ch of added.text) if (kept < text.length && ch === text[kept]) kept += 1;
        expect(kept).toBe(text.length);
      }),
      { seed: 71 },
    );
  });
});

describe('what agent install writes (installWrites, for check --base too)', () => {
  const plan = (files: Map<string, string>): PlanInput => ({
    read: (f) => files.get(f),
    template: (t) => `// git-handoff template ${t}\nconst COMMANDS = {};\n`,
    block: (withPins) => `## Handoffs\n${withPins ? '\n- a pin\n' : ''}`,
    meter: false,
  });

  it('for every agent: its own output verifies as installed, and planning again changes nothing', () => {
    for (const agent of AGENTS) {
      const files = new Map<string, string>();
      for (const w of installWrites(agent, plan(files))) {
        expect(w.change, `${agent.name} ${w.file}`).not.toBe('');
        files.set(w.file, w.after);
      }
      expect(installWrites(agent, plan(files)).filter((w) => w.change !== '')).toEqual([]);
      for (const v of verifyAgent(agent, plan(files))) expect(v.state, `${agent.name} ${v.file}`).toBe('installed');
    }
  });

  it('flags an appended command as a change it would undo, and undoes it', () => {
    const claude = AGENTS.find((a) => a.name === 'claude')!;
    const files = new Map<string, string>();
    for (const w of installWrites(claude, plan(files))) files.set(w.file, w.after);
    const clean = files.get('.claude/settings.json')!;
    const ours = JSON.stringify(hookCommand('claude-pre-compact')).slice(1, -1);
    files.set('.claude/settings.json', clean.replace(ours, `${ours}; echo more`));
    expect(verifyAgent(claude, plan(files))[0]).toMatchObject({ state: 'modified', modified: ['PreCompact'] });
    const again = installWrites(claude, plan(files)).find((w) => w.file === '.claude/settings.json')!;
    expect(again.change).toBe('replaced 1 hook that differed from what install writes');
    expect(again.after).toBe(clean);
  });

  it('fills a plugin with the command of each of its hooks', () => {
    const pi = AGENTS.find((a) => a.name === 'pi')!;
    const file = installWrites(pi, plan(new Map())).find((w) => w.kind === 'file')!;
    expect(file.after).toContain(JSON.stringify(hookCommand('pi-session-start')));
    expect(file.after).toContain(JSON.stringify(hookCommand('pi-pre-compact')));
  });
});

const parts = (over: Partial<ResumeParts> = {}): ResumeParts => ({
  id: '01jx7k2m9q8r4s5t6v7w8x9y0z',
  file: '.handoff/handoffs/01jx7k2m9q8r4s5t6v7w8x9y0z.md',
  goal: 'ship teams',
  notes: '',
  pins: [{ id: 'p1', file: '.handoff/pins/p1.md', text: 'never touch src/auth' }],
  next_steps: '- do the next thing',
  in_progress: '',
  open_questions: '',
  decisions: '',
  tried: '',
  references: '',
  current_state: '',
  completed: '',
  files: [],
  since: {
    head: null,
    headFound: false,
    commits: [],
    commitCount: 0,
    changedFiles: [],
    stillUncommitted: [],
    missingFiles: [],
  },
  ...over,
});

describe('session context budget', () => {
  it('passes a prompt at the limit whole and shortens one character more', () => {
    expect(sessionContext('a'.repeat(10_000), parts())).toEqual({
      text: 'a'.repeat(10_000),
      form: 'full',
      pointedPins: 0,
    });
    const short = sessionContext('a'.repeat(10_001), parts());
    expect(short.form).toBe('pins-goal-next');
    expect(short.text).toContain('10,001 characters');
    expect(sessionContext('a'.repeat(20_000), parts({ next_steps: 'n'.repeat(9_900) })).form).toBe('pins-goal');
    const long = sessionContext(
      'a'.repeat(20_000),
      parts({ pins: [{ id: 'p1', file: '.handoff/pins/p1.md', text: 'p'.repeat(10_000) }] }),
    );
    expect(long.form).toBe('pins-goal-next');
    expect(long.pointedPins).toBe(1);
    expect(long.text).toContain('Read `.handoff/pins/p1.md` now');
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: `p${i}`,
      file: `.handoff/pins/p${i}.md`,
      text: 'p'.repeat(10_000),
    }));
    const pointer = sessionContext('a'.repeat(20_000), parts({ pins: many }));
    expect(pointer.form).toBe('pointer');
    expect(pointer.text).toContain('200 pinned constraints ');
  });
});

describe('hook input', () => {
  it('keeps known string fields, and says what was wrong otherwise', () => {
    expect(parseHookInput('{"session_id":"s","trigger":"auto","custom_instructions":"","extra":1,"cwd":5}')).toEqual({
      ok: true,
      input: { session_id: 's', trigger: 'auto', custom_instructions: '' },
    });
    expect(parseHookInput('')).toEqual({ ok: true, input: {} });
    expect(parseHookInput('null')).toMatchObject({ ok: false, problem: expect.stringContaining('stdin is null') });
    expect(parseHookInput('{')).toMatchObject({ ok: false, problem: expect.stringContaining('stdin is not JSON') });
  });

  it("keeps the chain's goal in the user's words; a compaction's step is its own", () => {
    expect(chainGoal('continue: continue: ship teams')).toBe('ship teams');
    expect(chainGoal('continue: the work of the compacted agent session abc')).toBeUndefined();
    expect(chainGoal(undefined)).toBeUndefined();
    expect(firstRequest([{ text: '\nAdd team billing.\nUse Stripe.' }], 1)).toBe('Add team billing.');
    // The first turns were dropped from the extraction: the first one kept is not the request.
    expect(firstRequest([{ text: 'keep going' }], 50)).toBeUndefined();
    expect(compactionStep('  focus on billing ', 's')).toBe('focus on billing');
    expect(compactionStep('', 'abc')).toBe('continue the agent session abc after its compaction');
  });
});

describe('draft additions and usage', () => {
  it('appends lines at the end of a section and adds a missing one', () => {
    expect(
      addToSections('## Goal\n\nx\n\n## References\n\n- one\n', { References: ['- two'], Decisions: ['- d'] }),
    ).toBe('## Goal\n\nx\n\n## References\n\n- one\n- two\n\n## Decisions\n\n- d\n');
    expect(addToSections('## References\n\n', { References: ['## not a heading'] })).toBe(
      '## References\n\n\\## not a heading\n',
    );
  });

  it('reads the last main-thread assistant usage and skips torn lines', () => {
    const a = (usage: object, extra = {}) =>
      JSON.stringify({ type: 'assistant', message: { model: 'm', usage }, ...extra });
    const text = [
      '{"torn',
      a({ input_tokens: 1, output_tokens: 2 }),
      a({ input_tokens: 100 }, { isSidechain: true }),
      '{"type":"user"}',
      '',
    ].join('\n');
    // What fills the context for the next turn, as `handoff meter` counts it: output tokens are not input yet.
    expect(lastUsage(text)).toEqual({ tokens: 1, model: 'm' });
    expect(lastUsage('{"type":"user"}\n')).toBeUndefined();
  });
});
