// The parsers a parse of .handoff/ files needs, for the files it will parse: a handoff in the
// form this tool writes is read without the YAML library (plain-front-matter.ts), which is
// loaded only when one of them is in another form, or a pin is among them. The library
// costs tens of milliseconds to load, and 0.4 ms a file to parse: a fresh clone's first
// `check` of a year of handoffs was mostly that, and a session start after a pull loaded it
// for the few handoffs the pull brought.
import { plainHandoff } from './plain-front-matter.js';
import { itemKind, type Parsers } from './tree.js';

export async function loadParsers(files: ReadonlyArray<{ path: string; text: string }>): Promise<Parsers> {
  const plain = new Map<string, { text: string; parsed: ReturnType<typeof plainHandoff> }>();
  let yaml = false;
  for (const f of files) {
    const parsed = itemKind(f.path) === 'handoff' ? plainHandoff(f.text, f.path) : undefined;
    if (parsed === undefined) yaml = true;
    else plain.set(f.path, { text: f.text, parsed });
  }
  const [handoff, pin] = yaml ? await Promise.all([import('./handoff.js'), import('./pin.js')]) : [];
  return {
    handoff: (text, file) => {
      const known = plain.get(file);
      const parsed = known?.text === text ? known.parsed : plainHandoff(text, file);
      if (parsed) return parsed;
      if (!handoff) throw new Error(`internal: ${file} was not among the files to parse`);
      return handoff.parseHandoff(text, file);
    },
    pin: (text, file) => {
      if (!pin) throw new Error(`internal: ${file} was not among the files to parse`);
      return pin.parsePin(text, file);
    },
  };
}
