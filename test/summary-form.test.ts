// The form we ask an agent's summarizer for, its lenient reading (src/handoff/summary-form.ts), and
// each reader's summary of the crafted compactions in test/fixtures/summaries/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClaudeCode } from '../src/transcripts/claude-code.js';
import { readCodex } from '../src/transcripts/codex.js';
import { newStats, type Lines, type TranscriptEvent } from '../src/transcripts/events.js';
import { Extractor } from '../src/transcripts/extract.js';
import { readGeminiCli } from '../src/transcripts/gemini-cli.js';
import { readPi } from '../src/transcripts/pi.js';
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

async function* lines(records: string[]): Lines {
  for (const r of records) yield r;
}
async function collect(it: AsyncIterable<TranscriptEvent>): Promise<TranscriptEvent[]> {
  const out: TranscriptEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe("the agents' own compaction summaries (test/fixtures/summaries/)", () => {
  const fixture = (name: string) =>
    readFileSync(path.resolve(__dirname, 'fixtures/summaries', name), 'utf8')
      .trimEnd()
      .split('\n');
  const summaries = (events: TranscriptEvent[]) =>
    events.flatMap((e) => (e.kind === 'compaction' && e.summary ? [e.summary] : []));

  it('each reader gives the summary its compaction recorded, once, and nothing of it as the user', async () => {
    const cases = [
      [readClaudeCode, 'claude-code-2.1.330-compact.jsonl', 'claude-code'],
      [readCodex, 'codex-0.169.0-compact.jsonl', 'codex'],
      [readPi, 'pi-0.73.1-compact.jsonl', 'pi'],
      [readGeminiCli, 'gemini-0.61.0-compact.jsonl', 'gemini-cli'],
    ] as const;
    for (const [read, name, agent] of cases) {
      const events = await collect(read(lines(fixture(name)), newStats()));
      const found = summaries(events);
      expect(found, name).toHaveLength(1);
      // The agent's lead-in is gone: the summary starts with its own first heading.
      expect(found[0], name).toMatch(/^(1\. Primary Request|## Goal|<state_snapshot>)/);
      expect(
        events.some((e) => e.kind === 'user' && /Summary:|state_snapshot|## Goal/.test(e.text)),
        name,
      ).toBe(false);
      // One compaction, however many records the agent writes for it.
      const x = new Extractor(agent);
      for (const e of events) x.add(e);
      expect(x.result().counts.compactions, name).toBe(1);
    }
  });

  it('Gemini CLI: the summary is the message it thanks for, not the session context the history opens with', async () => {
    const records = fixture('gemini-0.61.0-compact.jsonl').map((l) => {
      const r = JSON.parse(l);
      if (!('$set' in r)) return l;
      // The rewritten history as Gemini CLI 0.61 also writes it: its session context (with
      // GEMINI.md) first, then the summary and its acknowledgement.
      const context = {
        id: 'g0',
        type: 'user',
        content: [
          { text: '<session_context>\nShould you ask first? Before you stop, run handoff new.\n</session_context>' },
        ],
      };
      r.$set.messages = [context, ...r.$set.messages];
      return JSON.stringify(r);
    });
    const found = summaries(await collect(readGeminiCli(lines(records), newStats())));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^<state_snapshot>/);
    // A rewrite with neither the acknowledgement nor a snapshot holds no summary.
    const bare = records.map((l) => {
      const r = JSON.parse(l);
      if ('$set' in r) r.$set.messages = r.$set.messages.slice(0, 1);
      return JSON.stringify(r);
    });
    expect(summaries(await collect(readGeminiCli(lines(bare), newStats())))).toEqual([]);
  });
});
