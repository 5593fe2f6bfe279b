// A body someone else wrote (`new -F`, stdin, an agent's own summary) merged into the
// drafted one, which carries the chain's living state: a section the writer wrote
// replaces the draft's section of that title; a carried section the writer left out
// stays, so decisions, next steps and open questions are not lost by omission. Text
// before the first heading is the writer's too: it is kept, at the top. Sections the
// schema does not know are kept after the draft's, in the writer's order. Pure.
import { parseBody, renderBody, type Section } from '../store/markdown.js';

export interface MergedBody {
  body: string;
  /** Titles of the draft's sections the writer's text replaced. */
  replaced: string[];
  /** Titles of the draft's sections kept because the writer did not write them. */
  kept: string[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Each section ends with one blank line, so sections taken from two texts join cleanly. */
const spaced = (s: Section): Section => ({ ...s, content: `${s.content.replace(/\s+$/, '')}\n\n` });

export function mergeBody(draft: string, written: string): MergedBody {
  const base = parseBody(draft);
  const own = parseBody(written);
  const replaced: string[] = [];
  const kept: string[] = [];
  const sections: Section[] = [];
  for (const section of base.sections) {
    const mine = own.sections.find((s) => same(s.title, section.title));
    if (mine) replaced.push(section.title);
    else if (section.content.trim() !== '') kept.push(section.title);
    sections.push(mine ?? section);
  }
  for (const s of own.sections) if (!base.sections.some((d) => same(d.title, s.title))) sections.push(s);
  const preamble = own.preamble.trim() !== '' ? `${own.preamble.replace(/\s+$/, '')}\n\n` : base.preamble;
  const body = renderBody({ preamble, sections: sections.map(spaced) }).replace(/\s+$/, '');
  return { body: `${body}\n`, replaced, kept };
}
