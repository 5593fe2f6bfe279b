// Proof of delivery: `agent status` reads the agent's own latest session in this repository
// and says whether every active pin reached the model, from sessions the agents' releases
// wrote with our hooks installed (test/fixtures/transcripts/RECORDED.md).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, TRANSCRIPTS, type Repo } from './helpers.js';
import { pinSearch } from '../src/agents/pins-seen.js';

/** The pin the recorded sessions were run with. */
const RECORDED_PIN = 'Keep <Widget> & "quoted" names exactly as written; never edit generated/.';

/** A recorded session, moved to where the agent keeps it for `repo`, its paths made the repository's. */
function placeSession(repo: Repo, home: string, fixture: string, where: string): void {
  const text = readFileSync(path.join(TRANSCRIPTS, fixture), 'utf8').replaceAll('/home/user/project', repo.dir);
  mkdirSync(path.dirname(path.join(home, where)), { recursive: true });
  writeFileSync(path.join(home, where), text);
}

const status = (repo: Repo, home: string) =>
  JSON.parse(repo.handoff(['agent', 'status', '--json'], { env: { HOME: home } }).stdout);

describe('agent status: did the pins arrive?', () => {
  it("reads Claude Code's and Gemini CLI's latest session, and names a pin that did not arrive", () => {
    const repo = makeRepo();
    const home = tempDir('handoff-home-');
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['pin', RECORDED_PIN]).code).toBe(0);
    expect(repo.handoff(['agent', 'install', 'claude']).code).toBe(0);
    expect(repo.handoff(['agent', 'install', 'gemini']).code).toBe(0);
    expect(status(repo, home).delivery.claude).toEqual({
      session: null,
      session_time: null,
      pins_arrived: null,
      missing_pins: [],
    });

    const key = repo.dir.replace(/[^a-zA-Z0-9]/g, '-');
    placeSession(repo, home, 'claude-code/claude-code-2.1.330-sum.jsonl', `.claude/projects/${key}/s1.jsonl`);
    const hash = createHash('sha256').update(repo.dir).digest('hex');
    placeSession(repo, home, 'gemini-cli/session-gemini-0.61.0-sum.jsonl', `.gemini/tmp/${hash}/chats/session-1.jsonl`);
    const arrived = status(repo, home);
    expect(arrived.delivery.claude).toMatchObject({
      session: `~/.claude/projects/${key}/s1.jsonl`,
      pins_arrived: true,
      missing_pins: [],
    });
    expect(arrived.delivery.gemini).toMatchObject({ pins_arrived: true });
    const text = repo.handoff(['agent', 'status', 'claude'], { env: { HOME: home } }).stdout;
    expect(text).toContain(
      `claude     pins   every pin arrived in the latest session (~/.claude/projects/${key}/s1.jsonl)`,
    );

    // A pin set after that session: the session did not receive it, and status says which.
    const later = repo.handoff(['pin', 'Ask before adding a dependency.']);
    const id = /Pinned (\w+)/.exec(later.stdout)![1]!;
    const missing = status(repo, home);
    expect(missing.delivery.claude).toMatchObject({ pins_arrived: false, missing_pins: [id] });
    expect(repo.handoff(['agent', 'status', 'claude'], { env: { HOME: home } }).stdout).toContain(
      `PINS MISSING from the latest session (~/.claude/projects/${key}/s1.jsonl): ${id}`,
    );
  });

  it('names the last compaction handoff', () => {
    const repo = makeRepo();
    const home = tempDir('handoff-home-');
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['agent', 'install', 'claude']).code).toBe(0);
    expect(status(repo, home).last_compaction).toBeNull();
    const hook = repo.handoff(['hook', 'claude-pre-compact'], {
      input: JSON.stringify({ session_id: 'abc', hook_event_name: 'PreCompact', trigger: 'auto' }),
      env: { HOME: home },
    });
    expect(hook.code).toBe(0);
    const last = status(repo, home).last_compaction;
    expect(last.file).toMatch(new RegExp(`^\\.handoff/handoffs/\\d{4}-\\d\\d/\\d\\d/${last.id}\\.md$`));
    expect(repo.handoff(['agent', 'status', 'claude'], { env: { HOME: home } }).stdout).toContain(
      `last compaction handoff: ${last.id} (${last.created}, ${last.file})`,
    );
  });

  it('finds a pin in the forms the agents record it: JSON-escaped, and Gemini CLI escaping < and >', () => {
    const search = pinSearch([
      { id: 'a', text: RECORDED_PIN },
      { id: 'b', text: 'two\nlines' },
      { id: 'c', text: 'never seen' },
    ]);
    search.line(
      JSON.stringify({ context: 'Keep &lt;Widget&gt; & "quoted" names exactly as written; never edit generated/.' }),
    );
    search.line(JSON.stringify({ text: 'x two\nlines y' }));
    expect(search.done()).toBe(false);
    expect(search.result()).toEqual({ arrived: ['a', 'b'], missing: ['c'] });
  });
});
