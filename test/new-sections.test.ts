// `handoff new --sections`: what /handoff in an agent writes itself (the user's request,
// decisions with why, approaches abandoned with why, ...) joins the draft's sections after
// what the handoff carries: nothing carried is replaced.
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

const section = (body: string, title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

function chain() {
  const repo = makeRepo();
  repo.commit('teams', { 'src/teams.ts': 'export const teams = new Map();\n' });
  repo.handoff(['init']);
  const first = repo.handoff(['new', 'build the teams page', '--no-edit', '--sections', '-'], {
    input: '## Decisions\n- Keep teams in a Map — why: lookups by id dominate\n\n## Next steps\n- Write the router\n',
  });
  expect(first.code).toBe(0);
  return repo;
}

describe('handoff new --sections', () => {
  it('adds the items to the carried ones, marked as written by the agent', () => {
    const repo = chain();
    const second = repo.handoff(['new', 'wire the teams page', '--no-edit', '--sections', '-'], {
      input: [
        '## Goal\n- The user\'s request: "list every team with its members"',
        '## Decisions\n- Render with `src/teams.ts` — why: it holds the Map',
        '## Tried and abandoned\n- Paging members on scroll — why: the user turned it down',
        '## Next steps\n- Document it in `docs/nowhere.md`',
      ].join('\n\n'),
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('handoff: --sections added 4 items; 1 path git does not know flagged');
    const body = repo.read(second.stdout.trim());
    // Carried from the first handoff, not replaced.
    expect(section(body, 'Decisions')).toMatch(/- D1: Keep teams in a Map — why: lookups by id dominate/);
    expect(section(body, 'Next steps')).toContain('Write the router');
    expect(section(body, 'Decisions')).toContain(
      '- D2: Render with `src/teams.ts` — why: it holds the Map (written by the agent)',
    );
    expect(section(body, 'Tried and abandoned')).toContain(
      '- Paging members on scroll — why: the user turned it down (written by the agent)',
    );
    expect(section(body, 'Next steps')).toContain(
      '`docs/nowhere.md` **[unverified: `docs/nowhere.md` is not a file git knows]** (written by the agent)',
    );
    expect(section(body, 'Goal')).toContain('"list every team with its members"');
    // And the next handoff carries what the agent wrote.
    const third = repo.handoff(['new', 'test the teams page', '--no-edit']);
    const next = repo.read(third.stdout.trim());
    expect(section(next, 'Tried and abandoned')).toContain('Paging members on scroll — why: the user turned it down');
    expect(section(next, 'Decisions')).toContain('Render with `src/teams.ts` — why: it holds the Map');
  });

  it('refuses a file without the sections in one line, and writes nothing', () => {
    const repo = chain();
    repo.write('notes.md', 'We did things.\n');
    const before = repo.files('.handoff/handoffs');
    const r = repo.handoff(['new', 'next', '--no-edit', '--sections', 'notes.md']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "handoff: notes.md: none of the handoff's sections with items; expected `## <section>` headings (## Decisions, ## Next steps, ...) each with `- ` items; nothing written\n",
    );
    expect(repo.files('.handoff/handoffs')).toEqual(before);
    const missing = repo.handoff(['new', 'next', '--no-edit', '--sections', 'gone.md']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('gone.md');
    expect(repo.files('.handoff/handoffs')).toEqual(before);
    const both = repo.handoff(['new', 'next', '-F', '-', '--sections', '-'], { input: '## Goal\n- x\n' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--sections - and -F - both read stdin');
  });
});
