// /handoff in every agent that has one writes the handoff's sections itself through
// `handoff new --sections -`: what `agent install` writes for each, and the command text an
// agent would run, taken from that file and run by a shell against a real repository, so
// that what it writes joins the carried state instead of replacing it.
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';

/** The /handoff file each agent's install writes, and how the agent passes the goal into it. */
const COMMANDS: Array<{ agent: string; file: string; goal: string }> = [
  { agent: 'claude', file: '.claude/commands/handoff.md', goal: '$ARGUMENTS' },
  { agent: 'opencode', file: '.opencode/command/handoff.md', goal: '$ARGUMENTS' },
  { agent: 'gemini', file: '.gemini/commands/handoff.toml', goal: '{{args}}' },
  { agent: 'pi', file: '.pi/prompts/handoff.md', goal: '$ARGUMENTS' },
  { agent: 'kilo', file: '.kilo/command/handoff.md', goal: '$ARGUMENTS' },
  { agent: 'qwen', file: '.qwen/commands/handoff.toml', goal: '{{args}}' },
  { agent: 'cline', file: '.clinerules/workflows/handoff.md', goal: '<goal>' },
  { agent: 'copilot', file: '.github/skills/handoff/SKILL.md', goal: '<goal>' },
];

/** What a model would write under each heading of the form, in place of its placeholder line. */
const FILLED: Record<string, string> = {
  Goal: '- The user\'s request: "list every team with its members"',
  Decisions: '- Render with `src/teams.ts` — why: it holds the Map',
  'Tried and abandoned': '- Paging members on scroll — why: the user turned it down',
  'Open questions': '- Should archived teams be listed?',
  'In progress': '- Wiring the page to `src/teams.ts`',
  'Next steps': '- Add a test for the empty team',
};

const section = (body: string, title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

/** The shell block of a /handoff file, the goal put in and each placeholder item filled as a model would. */
function commandOf(text: string, goalToken: string, goal: string): string {
  const block = /```sh\n([\s\S]*?)\n```/.exec(text)?.[1];
  expect(block, 'a ```sh block').toBeDefined();
  let heading = '';
  return block!
    .split('\n')
    .map((line) => {
      const h = /^## (.+)$/.exec(line);
      if (h) heading = h[1]!;
      else if (line.startsWith('- ')) return FILLED[heading] ?? line;
      return line;
    })
    .join('\n')
    .replaceAll(goalToken, goal);
}

describe('/handoff in the agents', () => {
  it('every installed /handoff file passes the sections to `new --sections -`, in one form', () => {
    const repo = makeRepo();
    const env = { HOME: tempDir('handoff-home-') };
    expect(repo.handoff(['init'], { env }).code).toBe(0);
    const blocks = new Set<string>();
    for (const { agent, file, goal } of COMMANDS) {
      const r = repo.handoff(['agent', 'install', agent], { env });
      expect(r.code, `${agent}: ${r.stderr}`).toBe(0);
      const text = repo.read(file);
      expect(text, agent).toContain(`handoff new "${goal}" --from auto --no-edit --sections - <<'HANDOFF'`);
      for (const title of Object.keys(FILLED)) expect(text, `${agent}: ## ${title}`).toContain(`\n## ${title}\n- `);
      expect(text, agent).toContain('nothing carried is\nreplaced');
      blocks.add(commandOf(text, goal, 'x'));
    }
    // One form for all: what harvest and --sections read back.
    expect(blocks.size).toBe(1);
  });

  it.each(COMMANDS)(
    '$agent: the command it runs from its /handoff file adds to the carried state and replaces none of it',
    ({ agent, file, goal }) => {
      const repo = makeRepo();
      const env = { HOME: tempDir('handoff-home-') };
      repo.commit('teams', { 'src/teams.ts': 'export const teams = new Map();\n' });
      expect(repo.handoff(['init'], { env }).code).toBe(0);
      const first = repo.handoff(['new', 'build the teams page', '--no-edit', '--sections', '-'], {
        env,
        input:
          '## Decisions\n- Keep teams in a Map — why: lookups by id dominate\n\n## Next steps\n- Write the router\n',
      });
      expect(first.code, first.stderr).toBe(0);
      expect(repo.handoff(['agent', 'install', agent], { env }).code).toBe(0);
      repo.commit('the first handoff, and the agent installed');
      // `handoff` on PATH, as the agent's shell finds it.
      const bin = tempDir('handoff-bin-');
      writeFileSync(path.join(bin, 'handoff'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(path.join(bin, 'handoff'), 0o755);
      const script = commandOf(repo.read(file), goal, 'wire the teams page');
      const r = spawnSync('sh', ['-c', script], {
        cwd: repo.dir,
        env: gitEnv({ ...env, PATH: `${bin}:${process.env.PATH}` }),
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain('handoff: --sections added 6 items');
      const body = repo.read(r.stdout.trim());
      expect(body).toContain('goal: "wire the teams page"');
      // Carried from the first handoff, not replaced.
      expect(section(body, 'Decisions')).toMatch(/- D1: Keep teams in a Map — why: lookups by id dominate/);
      expect(section(body, 'Next steps')).toContain('Write the router');
      // What the agent wrote, marked as its own.
      expect(section(body, 'Decisions')).toContain(
        '- D2: Render with `src/teams.ts` — why: it holds the Map (written by the agent)',
      );
      expect(section(body, 'Tried and abandoned')).toContain(
        'Paging members on scroll — why: the user turned it down (written by the agent)',
      );
      expect(section(body, 'Open questions')).toContain('Should archived teams be listed? (written by the agent)');
      expect(section(body, 'In progress')).toContain('Wiring the page to `src/teams.ts` (written by the agent)');
      expect(section(body, 'Next steps')).toContain('Add a test for the empty team (written by the agent)');
      expect(section(body, 'Goal')).toContain('"list every team with its members"');
    },
  );
});
