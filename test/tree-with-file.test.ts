// A write patches the tree a run already read (store.ts written, tree.ts withFile) instead
// of reading every file again: the patched tree is what parsing every file gives.
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../src/store/handoff.js';
import { parsePin } from '../src/store/pin.js';
import {
  type CachedItem,
  kept,
  needText,
  type ParseCache,
  parseTree,
  withFiles,
  type Tree,
  type TreeFile,
} from '../src/store/tree.js';
import { handoffText, id, pinText } from './fixtures-items.js';

const parsers = { handoff: parseHandoff, pin: parsePin };
const at = (i: string, day = '05') => `.handoff/handoffs/2026-01/${day}/${i}.md`;

const shape = (t: Tree) =>
  JSON.stringify({
    handoffs: t.handoffs.map((h) => [h.file, h.meta]),
    pins: t.pins.map((p) => [p.file, p.meta, p.text]),
    problems: t.problems,
    misnamed: t.misnamed.map((m) => [m.file, m.meta.id]),
  });

const base: TreeFile[] = [
  { path: at(id(1)), text: handoffText({ id: id(1), status: 'superseded', superseded_by: id(3) }) },
  { path: at(id(2), '04'), text: handoffText({ id: id(2) }) },
  { path: at(id(3)), text: handoffText({ id: id(3), parent: id(1) }) },
  { path: at(id(2), '06'), text: handoffText({ id: id(2), goal: 'the same id twice' }) },
  { path: '.handoff/pins/p.md', text: 'not a pin\n' },
  { path: `.handoff/pins/${id(9)}.md`, text: pinText({ id: id(9) }, 'a constraint') },
];

describe('withFiles', () => {
  const cases: Array<[string, TreeFile]> = [
    [
      'a handoff superseded',
      { path: at(id(3)), text: handoffText({ id: id(3), status: 'superseded', superseded_by: id(4) }) },
    ],
    ['a new handoff', { path: at(id(4), '07'), text: handoffText({ id: id(4), parent: id(3) }) }],
    ['a file made unreadable', { path: at(id(1)), text: '---\nid: [\n---\n' }],
    ['a broken file mended', { path: '.handoff/pins/p.md', text: pinText({ id: id(8) }, 'p') }],
    ['a file misnamed', { path: at(id(3)), text: handoffText({ id: id(5) }) }],
    ['one of two with an id', { path: at(id(2), '06'), text: handoffText({ id: id(2), goal: 'edited' }) }],
    ['a pin edited', { path: `.handoff/pins/${id(9)}.md`, text: pinText({ id: id(9) }, 'another constraint') }],
  ];
  for (const [name, one] of cases) {
    it(`gives what parsing every file gives: ${name}`, () => {
      const after = [...base.filter((f) => f.path !== one.path), one];
      const patched = withFiles(
        parseTree(base, undefined, parsers),
        new Map([[one.path, parseTree([one], undefined, parsers)]]),
      );
      expect(shape(patched)).toBe(shape(parseTree(after, undefined, parsers)));
    });
  }
  it('gives what parsing every file gives: every case at once', () => {
    const ones = new Map<string, TreeFile>();
    for (const [, one] of cases) ones.set(one.path, one); // the last write of a file wins, as on disk
    const after = [...base.filter((f) => !ones.has(f.path)), ...ones.values()];
    const parsed = new Map([...ones].map(([p, one]) => [p, parseTree([one], undefined, parsers)]));
    expect(shape(withFiles(parseTree(base, undefined, parsers), parsed))).toBe(
      shape(parseTree(after, undefined, parsers)),
    );
  });
});

describe("an open handoff's body, kept only for a file given by its text", () => {
  const body =
    '## Goal\n\nthe goal\n\n## Next steps\n\n```\n## not a heading\n```\n- step\n\n## Decisions\n\n- one\n\n## Open questions\n\n- why?\n\n## Next steps\n\n- a second section of that title\n';
  const text = handoffText({ id: id(4) }).replace(/\n---\n[\s\S]*$/, `\n---\n${body}`);
  const file = { path: at(id(4)), blob: 'b'.repeat(40) };
  const whole = parseHandoff(text, file.path);
  const store = (): ParseCache & { entries: Map<string, CachedItem> } => {
    const entries = new Map<string, CachedItem>();
    return { entries, get: (k) => entries.get(k), set: (k, v) => void entries.set(k, v) };
  };

  it('keeps of a staged or committed file no body, and has its text read again, every section as parsed', () => {
    const cache = store();
    parseTree([{ ...file, text }], cache, parsers);
    const [entry] = [...cache.entries.values()];
    expect(entry).toEqual({ meta: whole.meta, blob: file.blob });
    expect(needText([file], cache)).toEqual([file]);
    const [h] = parseTree([{ ...file, text }], cache).handoffs;
    expect(h?.bodyText).toBe(whole.bodyText);
    expect(h?.body.sections).toEqual(whole.body.sections);
  });

  it('keeps a file given by its text alone whole, and a work-tree file without its body', () => {
    const parsed: CachedItem = { meta: whole.meta, body: whole.bodyText };
    expect(kept({ path: file.path, text }, parsed)).toEqual(parsed);
    expect(kept({ path: file.path, laterBody: () => '' }, parsed)).toEqual({ meta: whole.meta });
    expect(kept({ ...file, text }, parsed)).toEqual({ meta: whole.meta });
  });
});
