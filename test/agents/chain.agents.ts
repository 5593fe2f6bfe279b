// A chain of real agents in one repository, each handing off through our own integration:
// HANDOFF_AGENTS_CHAIN=claude,codex,gemini (any ids of real-agents.agents.ts, in order)
// runs each agent once with its own HOME and scripted model server, makes it compact
// once (its pre-compact hook writes the handoff, the next session start harvests its
// summary: steered into our sections, or read as prose), commits, and hands the
// repository to the next. Then it checks what the last resume prompt still holds: the
// pin verbatim, the user's request as the goal, the decision, the abandoned approach and
// the open question the summaries carry, each item once. Skipped unless the variable is set.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/transcripts/tokens.js';
import { runHandoff, type Repo } from '../helpers.js';
import { agentDone, compactOnce, prepareWorld, sessionOf } from './compact.js';
import { PROMPT } from './drivers.js';
import { binOf, driver, makeWorld, PIN } from './harness.js';

const ids = process.env.HANDOFF_AGENTS_CHAIN?.split(',').filter(Boolean) ?? [];

/** Phrases the last resume prompt must hold, compared case- and space-insensitively. */
const FACTS: Array<[string, string]> = [
  ["the user's request", 'Add a sum helper in src/sum.js'],
  ['a decision', 'export sum from'],
  ["the decision's reason", 'the tests import it from there'],
  ['an abandoned approach', 'array argument'],
  ["the approach's reason", 'callers pass two numbers'],
  ['an open question', 'Should sum also accept strings?'],
];

const fold = (t: string) => t.toLowerCase().replace(/\s+/g, ' ');

describe.skipIf(ids.length === 0)('a chain of real agents', () => {
  it(`${ids.join(' -> ')}`, async () => {
    const missing = ids.filter((id) => !driver(id) || !existsSync(binOf(driver(id))));
    expect(missing, 'agents in the chain that are not installed').toEqual([]);
    let repo: Repo | undefined;
    let home = '';
    const harvested: Record<string, boolean> = {};
    for (const [i, id] of ids.entries()) {
      const d = driver(id);
      const w = await makeWorld(d, repo ? { repo } : {});
      repo ??= w.repo;
      home = w.home;
      try {
        prepareWorld(d, w);
        const first = await w.run(i === 0 ? PROMPT : 'Continue the work.');
        expect(first.code, `${id}: ${first.stderr.slice(-500)}`).toBe(0);
        const transcript = d.transcript(w.home, w.repo.dir);
        const before = w.handoff(['list', '--json']).stdout;
        await compactOnce(d, w, sessionOf(d, transcript, first.stdout));
        // One more session: its start harvests a summary still due.
        await w.run('Go on.');
        const list = JSON.parse(w.handoff(['list', '--json']).stdout).handoffs as Array<{ file: string }>;
        const written = list.filter((h) => !before.includes(h.file));
        // Folded: its items, or the line under References when the handoff held every one of them already.
        harvested[id] = written.some((h) =>
          /was folded in after the compaction/.test(
            readFileSync(path.join(w.repo.dir, h.file), 'utf8')
              .split('\n')
              .filter((l) => l.includes(`${d.title}'s summary`))
              .join('\n'),
          ),
        );
        w.repo.git('add', '-A');
        w.repo.git('commit', '-q', '--allow-empty', '-m', `${id} session`);
      } finally {
        await agentDone(d, w);
        await w.close();
      }
    }
    const prompt = runHandoff(repo!.dir, ['resume'], { env: { HOME: home } }).stdout;
    const kept = FACTS.filter(([, phrase]) => fold(prompt).includes(fold(phrase)));
    const items = prompt.split('\n').filter((l) => /^\s*- /.test(l));
    const twice = items.filter((l, i) => items.indexOf(l) !== i);
    console.log(
      `chain ${ids.join(' -> ')}: ${kept.length} of ${FACTS.length} facts kept; summaries harvested: ${ids.map((id) => `${id} ${harvested[id] ? 'yes' : 'no'}`).join(', ')}; items listed twice: ${twice.length}; prompt ${estimateTokens(prompt)} tokens`,
    );
    for (const [what, phrase] of FACTS)
      console.log(`  ${kept.some((k) => k[1] === phrase) ? 'kept' : 'LOST'}  ${what}: ${phrase}`);
    if (process.env.HANDOFF_AGENTS_SHOW) console.log(prompt);
    expect.soft(prompt, 'the pin, verbatim').toContain(PIN);
    expect.soft(prompt, 'a goal made up at compaction').not.toMatch(/the work of the (?:compacted )?agent session/);
    for (const id of ids) expect.soft(harvested[id], `${id}: its summary folded`).toBe(true);
    expect
      .soft(
        kept.map((k) => k[0]),
        'facts kept',
      )
      .toEqual(FACTS.map((f) => f[0]));
    expect.soft(twice, 'items listed twice').toEqual([]);
  });
});
