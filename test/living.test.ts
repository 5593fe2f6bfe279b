// The pure rules of a chain: items read back from Markdown, decisions superseded by
// marker or phrasing, and the parent's state reconciled with a new session.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseItem, renderItem, itemKey, type Item } from '../src/store/items.js';
import { assignIds, replacedSubjects, supersede } from '../src/handoff/decisions.js';
import { carryForward, chainCompleted, COMPLETED_KEPT, type Fresh } from '../src/handoff/living.js';
import { parseBody } from '../src/store/markdown.js';
import { currentDecisions, pinsOnlyParts, renderResume, type ResumeParts } from '../src/resume/prompt.js';
import { mergeBody } from '../src/handoff/merge-body.js';
import { fitBudget, units, type Budgeted } from '../src/resume/budget.js';
import { estimateTokens } from '../src/transcripts/tokens.js';

const d = (text: string, id?: string): Item => ({ text, prov: '', checked: false, ...(id ? { id } : {}) });
const fresh = (over: Partial<Fresh> = {}): Fresh => ({
  completed: [],
  in_progress: [],
  next_steps: [],
  open_questions: [],
  decisions: [],
  tried: [],
  currentState: [],
  ...over,
});
const superseded = (items: Item[]) =>
  Object.fromEntries(supersede(assignIds(items)).map((x) => [x.id, x.supersededBy ?? null]));

describe('items', () => {
  it('round-trips text, provenance, ids and supersession', () => {
    for (const line of [
      '- Paginate invoice list (handoff 01jqabcdefgh, todo, transcript line 5)',
      '- D3: "drop papaparse" (extracted from transcript line 2; confirm or delete)',
      '- ~~D1: use papaparse~~ (superseded by D3; handoff 01jqabcdefgh)',
      '- Pin candidate (the user\'s words, transcript line 1): "Never add dependencies."',
      '- Add the export endpoint (a2b3ffc)',
      '- a note a person wrote (with an aside)',
    ])
      expect(renderItem(parseItem(line.slice(2)))).toBe(line);
    expect(parseItem('a note a person wrote (with an aside)').prov).toBe('');
  });

  it('compares items by folded text', () => {
    expect(itemKey('Paginate **invoice** list.')).toBe(itemKey('paginate invoice list'));
    expect(itemKey('"Use `keyset` cursors"')).toBe('use keyset cursors');
  });
});

describe('decision supersession', () => {
  it('follows the phrasing rule for each common form', () => {
    expect(replacedSubjects('keyset cursors instead of OFFSET, because tables are huge')).toEqual(['offset']);
    expect(replacedSubjects('We will drop papaparse and quote by hand')).toEqual(['papaparse']);
    expect(replacedSubjects('switch from REST to gRPC since streaming matters')).toEqual(['rest']);
    expect(replacedSubjects('we no longer use moment because of its size')).toEqual(['moment']);
    expect(replacedSubjects('Replace the Redis cache with an LRU in memory')).toEqual(['redis']);
    expect(replacedSubjects('drop it, because it is broken')).toEqual([]);
    expect(replacedSubjects('Moving off Mongo to Postgres.')).toEqual(['mongo']);
    expect(replacedSubjects('Scrap the polling idea, server-sent events instead')).toEqual(['polling']);
    expect(replacedSubjects("Actually, let's not use Redis after all")).toEqual(['redis']);
    expect(replacedSubjects('No more pino; console.error is enough')).toEqual(['pino']);
    expect(replacedSubjects('Swapped esbuild for tsup')).toEqual(['esbuild']);
    expect(replacedSubjects('~~GraphQL~~ REST after all')).toEqual(['graphql']);
    const out = superseded([
      d('use OFFSET pagination because it is simple'),
      d('use papaparse because quoting is hard'),
      d('keyset cursors instead of OFFSET because 40M rows'),
    ]);
    expect(out).toEqual({ D1: 'D3', D2: null, D3: null });
  });

  it('honours an explicit marker, never supersedes a later decision, and lets agreeing decisions stand', () => {
    expect(superseded([d('use Postgres'), d('use SQLite for tests; supersedes D1')])).toEqual({ D1: 'D2', D2: null });
    // The older one already turned away from OFFSET: the newer agrees with it.
    expect(superseded([d('keyset instead of OFFSET'), d('cursor pagination instead of OFFSET, for speed')])).toEqual({
      D1: null,
      D2: null,
    });
    // A later decision mentioning the subject is not replaced by an earlier one.
    expect(superseded([d('drop lodash, write the two helpers'), d('use lodash-free helpers')])).toEqual({
      D1: null,
      D2: null,
    });
  });

  it('keeps ids stable: new decisions get the next free number', () => {
    expect(assignIds([d('a', 'D4'), d('b'), d('c', 'D2'), d('e')]).map((x) => x.id)).toEqual(['D4', 'D5', 'D2', 'D6']);
  });

  it('the resume prompt shows current decisions and names the superseded ones in one line', () => {
    expect(currentDecisions('- D2: keyset (x)\n- ~~D1: offset~~ (superseded by D2; y)')).toBe(
      '- D2: keyset (x)\n- Superseded, no longer current: D1 (by D2); their text is in the handoff file.',
    );
  });
});

describe('carrying the parent forward', () => {
  const parent = (body: string) => ({ id: '01jqparent0000000000000000', body: parseBody(body), files: ['src/a.ts'] });

  it('moves completed todos and checked items to Completed and lists each item once', () => {
    const p = parent(
      '## In progress\n\n- Write the tests (todo, transcript line 3)\n\n## Next steps\n\n- [x] Old thing\n- Paginate invoice list\n- Ship it\n',
    );
    const out = carryForward(
      p,
      fresh({
        completed: [d('write the tests.')],
        next_steps: [d('Paginate invoice list')],
        in_progress: [d('Ship it')],
      }),
      [],
    );
    expect(out.sections.completed).toBe('- Old thing (handoff 01jqparent00)\n- write the tests.');
    expect(out.sections.in_progress).toBe('- Ship it');
    expect(out.sections.next_steps).toBe('- Paginate invoice list (handoff 01jqparent00)');
    expect(out.currentState).toBe('### Earlier in this chain\n\n- `src/a.ts` (handoff 01jqparent00)');
  });

  it('bounds Completed: older items fold into a count with a pointer, and the count grows along the chain', () => {
    const many = Array.from({ length: COMPLETED_KEPT + 5 }, (_, i) => d(`step ${i}`));
    const first = carryForward(undefined, fresh({ completed: many }), []);
    expect(first.sections.completed.split('\n')).toHaveLength(COMPLETED_KEPT + 1);
    expect(first.sections.completed.split('\n')[0]).toBe('- … 5 earlier completed items');
    const next = carryForward(
      parent(`## Completed\n\n${first.sections.completed}\n`),
      fresh({ completed: [d('step new')] }),
      [],
    );
    expect(next.sections.completed.split('\n')[0]).toBe(
      '- … 6 earlier completed items: see handoff 01jqparent00 and the handoffs it continues',
    );
    expect(next.sections.completed).toContain('- step new');
  });

  it('drops a pin candidate that is already pinned', () => {
    const out = carryForward(
      undefined,
      fresh({
        open_questions: [
          { text: '"Never touch auth."', prov: "the user's words, transcript line 1", checked: false, pin: true },
        ],
      }),
      [],
      ['Never touch auth.'],
    );
    expect(out.sections.open_questions).toBe('');
  });
});

describe('a written body merged with the draft', () => {
  const draft =
    '## Goal\n\nship teams\n\n## Next steps\n\n- carried step (handoff 01jqabcdefgh)\n\n## Open questions\n\n- carried question? (handoff 01jqabcdefgh)\n\n## Decisions\n\n- D1: use keyset (handoff 01jqabcdefgh)\n\n## References\n\n';

  it('replaces the sections written, keeps the carried ones left out, and keeps text before the first heading', () => {
    const merged = mergeBody(
      draft,
      'Wrapped up the form today.\n\n## next steps\n\n- my own step\n\n## Risks\n\n- the queue\n',
    );
    const body = parseBody(merged.body);
    expect(body.preamble).toBe('Wrapped up the form today.\n\n');
    expect(body.sections.map((s) => s.title)).toEqual([
      'Goal',
      'next steps',
      'Open questions',
      'Decisions',
      'References',
      'Risks',
    ]);
    expect(merged.body).toContain('- my own step');
    expect(merged.body).not.toContain('carried step');
    expect(merged.body).toContain('- carried question? (handoff 01jqabcdefgh)');
    expect(merged.body).toContain('- D1: use keyset (handoff 01jqabcdefgh)');
    expect(merged).toMatchObject({ replaced: ['Next steps'], kept: ['Goal', 'Open questions', 'Decisions'] });
  });

  it('gives the draft back byte for byte when the writer wrote it all, and keeps a body with no heading', () => {
    expect(mergeBody(draft, draft).body).toBe(draft.replace(/\s+$/, '\n'));
    const notes = mergeBody(draft, 'just a note, no headings\n');
    expect(notes.body.startsWith('just a note, no headings\n\n## Goal\n')).toBe(true);
    expect(notes.replaced).toEqual([]);
  });
});

describe('the resume budget', () => {
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const parts = (over: Partial<Budgeted>): Budgeted => ({
    next_steps: '',
    in_progress: '',
    open_questions: '',
    decisions: '',
    tried: '',
    current_state: '',
    completed: '',
    references: '',
    files: '',
    ...over,
  });
  const pointer = (n: number) => `- … ${n} more`;

  it('splits a section into units that join back to it', () => {
    const text =
      '### Source\n\n- `a.ts` (added)\n  continued\n- `b.ts`\n\nA note\nover two lines\n\n### Tests\n\n- `a.test.ts`';
    const u = units(text);
    expect(u).toEqual([
      '### Source\n\n- `a.ts` (added)\n  continued',
      '- `b.ts`',
      '\nA note\nover two lines',
      '\n### Tests\n\n- `a.test.ts`',
    ]);
    expect(u.join('\n')).toBe(text);
  });

  it('fills the sections in the schema order and counts what is left, folds included', () => {
    const decisions = Array.from({ length: 30 }, (_, i) => `- D${i + 1}: decision number ${i + 1} with a reason`);
    const fitted = fitBudget(
      parts({
        in_progress: '- the task in hand',
        decisions: decisions.join('\n'),
        next_steps: '- the next step',
        completed: '- … 40 earlier completed items: see handoff x\n- done one',
      }),
      120,
      words,
      pointer,
    );
    expect(fitted.parts.in_progress).toBe('- the task in hand');
    const shown = fitted.parts.decisions.split('\n');
    expect(shown[0]).toBe(decisions[0]);
    expect(shown.at(-1)).toBe(`- … ${30 - (shown.length - 1)} more`);
    // Filled in order: once decisions overflow, next steps and completed are counted, not shown.
    expect(fitted.parts.next_steps).toBe('- … 1 more');
    expect(fitted.parts.completed).toBe('- … 41 more');
    const total = Object.entries(fitted.parts).reduce(
      (n, [, text]) => n + (text ? words(`## Title\n\n${text}\n\n`) : 0),
      0,
    );
    expect(total).toBeLessThanOrEqual(120);
  });

  it('counts nothing while the prompt has fewer characters than the budget has tokens, and prints what counting prints', () => {
    const template = readFileSync(path.join(__dirname, '../templates/resume.md'), 'utf8');
    const prompt: ResumeParts = {
      ...pinsOnlyParts([], ''),
      id: '01m82nhbsz8f055py1rnm6tr6v',
      file: '.handoff/handoffs/01m82nhbsz8f055py1rnm6tr6v.md',
      goal: 'the goal',
      notes: 'a note',
      in_progress: '- the task in hand\n- another task',
      decisions: '- D1: a decision, because of a reason',
      next_steps: '- the next step',
      files: [{ path: 'src/a.ts', change: 'modified', state: 'unstaged' }],
    };
    const refusing = (tokens: number) => ({
      tokens,
      count: () => {
        throw new Error('counted');
      },
    });
    const counted = (tokens: number) => renderResume(template, prompt, { tokens, count: estimateTokens });
    const counts = (tokens: number) => {
      try {
        renderResume(template, prompt, refusing(tokens));
        return false;
      } catch {
        return true;
      }
    };
    // The fewest tokens that need no counting: the prompt's characters past the pins.
    let least = 0;
    while (least < 5000 && counts(least)) least++;
    expect(least).toBeGreaterThan(100);
    expect(least).toBeLessThan(5000);
    expect(renderResume(template, prompt, refusing(least))).toBe(counted(least));
    expect(() => renderResume(template, prompt, refusing(least - 1))).toThrow('counted');
    // One token fewer is counted, and still fits: the estimate is under the characters.
    expect(counted(least - 1)).toBe(counted(least));
    expect(counted(least)).toBe(renderResume(template, prompt));
    expect(counted(40)).toContain('more item');
  });

  it('leaves a handoff that fits as it is', () => {
    const all = parts({ in_progress: '- a', decisions: '- D1: b', files: '### Source\n\n- `x.ts`' });
    expect(fitBudget(all, 1000, words, pointer)).toEqual({ parts: all, left: {} });
  });
});

describe('earlier files of a chain', () => {
  it('names the files of the last two hops and counts the older ones', () => {
    let body = parseBody('## Current state\n\n');
    let id = '';
    for (let hop = 1; hop <= 6; hop++) {
      const parentId = `01jqhop${hop}aaaaaaaaaaaaaaaaaaa`;
      const living = carryForward(hop === 1 ? undefined : { id, body, files: [`src/hop${hop - 1}.ts`] }, fresh(), [
        `src/hop${hop}.ts`,
      ]);
      body = parseBody(`## Current state\n\n${living.currentState}\n`);
      id = parentId;
      if (hop === 6) {
        expect(living.currentState).toContain('`src/hop5.ts`');
        expect(living.currentState).toContain('`src/hop4.ts`');
        expect(living.currentState).not.toContain('`src/hop3.ts`');
        expect(living.currentState).toMatch(/- … 3 earlier files: see handoff 01jqhop5aaaa/);
      }
    }
  });
});

describe('completed counts each item once', () => {
  it('does not count or list again an item the chain already folded into a count', () => {
    const item = (text: string): Item => ({ text, prov: '', checked: false });
    const many = Array.from({ length: COMPLETED_KEPT + 5 }, (_, i) => item(`task ${i}`));
    const first = carryForward(undefined, fresh({ completed: many }), []);
    const grand = {
      meta: { id: '01jqgrandaaaaaaaaaaaaaaaaa', parent: null },
      body: parseBody(`## Completed\n\n${many.map(renderItem).join('\n')}\n`),
    };
    const parentBody = parseBody(`## Completed\n\n${first.sections.completed}\n`);
    const parent = { meta: { id: '01jqparentaaaaaaaaaaaaaaaa', parent: grand.meta.id }, body: parentBody };
    const done = chainCompleted(parent.meta, [grand, parent]);
    // task 0 was folded into the count; the next session's todo list still shows it done.
    const next = carryForward(
      { id: parent.meta.id, body: parentBody, files: [], done },
      fresh({ completed: [item('task 0'), item('task new')] }),
      [],
    );
    expect(next.sections.completed).toMatch(/^- … 6 earlier completed items/);
    expect(next.sections.completed).not.toMatch(/^- task 0$/m);
    expect(next.sections.completed).toMatch(/^- task new$/m);
    // Without what the chain counted, the same session would count task 0 twice.
    const blind = carryForward(
      { id: parent.meta.id, body: parentBody, files: [] },
      fresh({ completed: [item('task 0')] }),
      [],
    );
    expect(blind.sections.completed).toMatch(/^- task 0$/m);
  });
});
