// Lines added to a drafted handoff body after the fact (what a transcript contributed,
// where it came from), appended at the end of the named sections. Everything else in the
// draft stays byte for byte; a section the draft lacks is added at the end.
import { escapeBlock, parseBody, renderBody } from '../store/markdown.js';

export type SectionLines = Record<string, readonly string[]>;

export function addToSections(draft: string, additions: SectionLines): string {
  const body = parseBody(draft);
  for (const [title, lines] of Object.entries(additions)) {
    if (lines.length === 0) continue;
    const text = escapeBlock(lines.join('\n'));
    const section = body.sections.find((s) => s.title.toLowerCase() === title.toLowerCase());
    if (section) {
      const kept = section.content.replace(/\s+$/, '');
      section.content = `${kept === '' ? '\n' : `${kept}\n`}${text}\n\n`;
    } else {
      const last = body.sections[body.sections.length - 1];
      if (last) last.content = `${last.content.replace(/\s+$/, '')}\n\n`;
      body.sections.push({ title, heading: `## ${title}\n`, content: `\n${text}\n` });
    }
  }
  return `${renderBody(body).replace(/\s+$/, '')}\n`;
}
