// The markdown helpers rewritten to run in linear time (a committed handoff can hold a
// megabyte of spaces or of `<!--`) give what the patterns they replace gave, on every
// short input over the characters that matter. bench/guard.js measures the time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inline, parseBody, sectionText } from '../src/store/markdown.js';

// The patterns as they were.
const OLD_HEADING = /^ {0,3}##(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?\n?$/;
const oldInline = (text: string) => text.replace(/\s*\r?\n\s*/g, ' ').trim();
const oldSectionText = (content: string) => content.replace(/<!--[\s\S]*?-->/g, '').trim();

const of = (chars: string[], max: number) =>
  fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));

describe('linear markdown helpers', () => {
  it('a heading line gives the title the old pattern gave', () => {
    fc.assert(
      fc.property(of([' ', '\t', '#', 'a', '\r'], 12), (tail) => {
        const line = `##${tail}\n`;
        const old = OLD_HEADING.exec(line);
        const section = parseBody(line).sections[0];
        expect(section?.title ?? null).toBe(old ? (old[1] ?? '').trim() : null);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it('inline and sectionText give what the old patterns gave', () => {
    fc.assert(
      fc.property(of([' ', '\t', '\n', '\r', 'a', '\u00a0'], 14), (text) => {
        expect(inline(text)).toBe(oldInline(text));
      }),
      { numRuns: 3000, seed: 25 },
    );
    fc.assert(
      fc.property(of(['<!--', '-->', '<', '!', '-', '>', 'a', '\n', ' '], 12), (text) => {
        expect(sectionText(text)).toBe(oldSectionText(text));
      }),
      { numRuns: 3000, seed: 25 },
    );
  });
});
