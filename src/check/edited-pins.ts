// Pins edited in place (`check`): each pin's text against the version that first added it
// to history. Which commit first added each pin is a walk of HEAD's whole history (a year
// of a team's handoff commits), so git's answer is remembered in the cache's answers by
// the commit it is about; after new commits, only they are walked and their additions
// joined to it. That join is exact only while every pin was added once (then the order of
// the walk cannot matter); a pin added twice (deleted and restored) makes every later
// run walk the whole history, as a run without the cache does.
import type { Context } from '../command/context.js';
import type { Git } from '../git/git.js';
import { openCache } from '../store/cache.js';
import type { Pin } from '../store/pin.js';
import { splitFrontMatter } from '../store/split.js';
import { PINS_PREFIX } from '../store/tree.js';
import { editedPinFinding, type Finding, type Texts } from './rules.js';

/** One answer, whichever commit it is about: a newer one replaces it. */
const KEY = 'pins-added\0';

interface Additions {
  /** The commit whose history was walked. */
  tip: string;
  /** Each pin file, by repository-relative path, and the commit that first added it. */
  added: Record<string, string>;
  /** Whether every file was added by one commit only. */
  once: boolean;
}

function asAdditions(v: unknown): Additions | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const a = v as Partial<Additions>;
  const ok = typeof a.tip === 'string' && typeof a.once === 'boolean' && typeof a.added === 'object' && a.added;
  return ok ? (a as Additions) : undefined;
}

/** `git log` of additions, newest first: the last commit seen for a file is its first addition. */
function parseLog(log: string): { added: Map<string, string>; once: boolean } {
  const added = new Map<string, string>();
  let once = true;
  let commit = '';
  for (const line of log.split('\n')) {
    if (line.startsWith('\x01')) commit = line.slice(1);
    else if (line && commit) {
      if (added.has(line)) once = false;
      added.set(line, commit);
    }
  }
  return { added, once };
}

const walk = (git: Git, revs: string[]) => git.additions('%x01%H', [`:/${PINS_PREFIX}`], false, revs);

/**
 * The commit that first added each pin file in HEAD's history; null when git cannot say
 * (no commit yet). Asked before the tree is read, so that git walks while the files are.
 */
export async function pinAdditions(ctx: Pick<Context, 'cacheFile'>, git: Git): Promise<Map<string, string> | null> {
  // Remembered only where an id fixes the history (no replaced objects, grafts or shallow clone).
  const tip = git.fixedHead();
  const opened = tip ? await openCache(ctx.cacheFile) : null;
  const known = opened ? asAdditions(opened.answers.get(KEY)) : undefined;
  if (tip && known?.tip === tip) return new Map(Object.entries(known.added));
  let answer: Additions | undefined;
  if (tip && known?.once && (await git.mergeBase(known.tip, tip)) === known.tip) {
    const log = await walk(git, [`^${known.tip}`, tip]);
    const newer = log === null ? undefined : parseLog(log);
    if (newer?.once && [...newer.added.keys()].every((file) => !(file in known.added)))
      answer = { tip, added: { ...known.added, ...Object.fromEntries(newer.added) }, once: true };
  }
  if (!answer) {
    const log = await walk(git, tip ? [tip] : []);
    if (log === null) return null;
    const all = parseLog(log);
    if (!tip) return all.added;
    answer = { tip, added: Object.fromEntries(all.added), once: all.once };
  }
  if (opened) {
    opened.answers.set(KEY, answer);
    await opened.save();
  }
  return new Map(Object.entries(answer.added));
}

/** Of `current`, the pins whose text differs from the version that first added them to history. */
export async function editedPins(
  git: Git,
  current: readonly Pin[],
  texts: Texts,
  additions: Map<string, string> | null,
): Promise<Finding[]> {
  if (additions === null) return [];
  const pins = current.filter((p) => additions.has(p.file));
  const originals = await git.readObjects(pins.map((p) => `${additions.get(p.file)}:${p.file}`));
  const findings: Finding[] = [];
  for (const pin of pins) {
    const commitOf = additions.get(pin.file)!;
    const text = originals.get(`${commitOf}:${pin.file}`);
    if (text === undefined) continue;
    // A pin's text is its body: the same body needs no front-matter parsed (nor the YAML library loaded).
    try {
      if (splitFrontMatter(text, pin.file).body === pin.text) continue;
    } catch {
      continue; // committed broken; the format rule reports the current file
    }
    const { parsePin } = await import('../store/pin.js');
    let original: Pin;
    try {
      original = parsePin(text, pin.file);
    } catch {
      continue; // committed broken; the format rule reports the current file
    }
    if (original.text !== pin.text) findings.push(editedPinFinding(pin, commitOf, texts.get(pin.file)));
  }
  return findings;
}
