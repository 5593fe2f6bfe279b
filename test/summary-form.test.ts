// The form we ask an agent's summarizer for, and its lenient reading (src/handoff/summary-form.ts).
import { describe, expect, it } from 'vitest';
import { parseSummary, SUMMARY_KEYS, summaryInstructions } from '../src/handoff/summary-form.js';
import { TITLE } from '../src/store/sections.js';

describe('the summary form', () => {
  it('round-trips: items written in the form asked for read back the same, section by section', () => {
    const items = Object.fromEntries(
      SUMMARY_KEYS.map((k, i) => [k, [`first ${k} item — why: reason ${i}`, `second \`src/${k}.ts\` item`]]),
    );
    const text = SUMMARY_KEYS.map((k) => `## ${TITLE[k]}\n${items[k]!.map((t) => `- ${t}`).join('\n')}\n`).join('\n');
    const parsed = parseSummary(text);
    expect(parsed.sections).toEqual(items);
    expect(parsed.items).toBe(SUMMARY_KEYS.length * 2);
    // Every heading the instructions name is one the parser reads.
    for (const k of SUMMARY_KEYS) expect(summaryInstructions()).toContain(`## ${TITLE[k]}:`);
  });

  it('reads leniently: any case, other heading levels and labels, wrapped bullets, "none", sections missing', () => {
    const parsed = parseSummary(
      [
        'Some preamble the summarizer wrote.',
        '### DECISIONS',
        '* Use a Map',
        '  because lookups dominate',
        '**Open questions:**',
        '- none',
        '4. Pending Tasks:',
        '   1. Write the tests',
        '## Pinned constraints',
        '- the pin, changed',
        '## Something else',
        '- not ours',
      ].join('\n'),
    );
    expect(parsed.sections).toEqual({
      decisions: ['Use a Map because lookups dominate'],
      next_steps: ['Write the tests'],
    });
    expect(parsed.ignored).toBe(1);
  });

  it('finds nothing in prose without the sections', () => {
    expect(parseSummary('We worked on the page. It went well.\n\nMore prose.').items).toBe(0);
  });
});
