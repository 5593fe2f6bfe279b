// The parsers a parse of .handoff/ files needs, for the files it will parse: a handoff or a
// pin in the form this tool writes is read without the YAML library (plain-front-matter.ts),
// which is loaded only when one of them is in another form. The library costs tens of
// milliseconds to load, and 0.4 ms a file to parse: a fresh clone's first `check` of a year
// of handoffs was mostly that, and a session start after a pull loaded it for the few
// handoffs the pull brought.
import { plainHandoff, plainPin } from './plain-front-matter.js';
import { itemKind, type Parsers } from './tree.js';

const plain = (text: string, file: string) =>
  itemKind(file) === 'pin' ? plainPin(text, file) : plainHandoff(text, file);

export async function loadParsers(files: ReadonlyArray<{ path: string; text: string }>): Promise<Parsers> {
  const read = new Map<string, { text: string; parsed: ReturnType<typeof plain> }>();
  let yaml = false;
  for (const f of files) {
    const parsed = plain(f.text, f.path);
    if (parsed === undefined) yaml = true;
    read.set(f.path, { text: f.text, parsed });
  }
  const [handoff, pin] = yaml ? await Promise.all([import('./handoff.js'), import('./pin.js')]) : [];
  /** The plain parse of a file (a handoff's or a pin's, as its path says), or undefined when the library reads it. */
  const known = <T>(text: string, file: string): T | undefined => {
    const was = read.get(file);
    // Each file is tried once: one in another form goes to the library without a second try.
    const parsed = was !== undefined && was.text === text ? was.parsed : plain(text, file);
    if (parsed === undefined && !handoff) throw new Error(`internal: ${file} was not among the files to parse`);
    return parsed as T | undefined;
  };
  return {
    handoff: (text, file) => known<ReturnType<Parsers['handoff']>>(text, file) ?? handoff!.parseHandoff(text, file),
    pin: (text, file) => known<ReturnType<Parsers['pin']>>(text, file) ?? pin!.parsePin(text, file),
  };
}
