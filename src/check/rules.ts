// `handoff check`: the rules, as pure functions over the parsed tree and facts gathered
// from git. The command gathers; this decides what is wrong and how to say it.
import type { Handoff } from '../store/handoff.js';
import type { Pin } from '../store/pin.js';
import { itemKind, type Tree } from '../store/tree.js';
import { activePins } from '../store/pin-scope.js';

export interface Finding {
  /** notice: nothing wrong, but a reviewer must read it (a pin a pull request adds). */
  level: 'error' | 'warning' | 'notice';
  /** Repository-relative file the finding is about. */
  file: string;
  line?: number;
  rule: string;
  message: string;
}

function lineOfKey(text: string | undefined, key: string): number | undefined {
  if (!text) return undefined;
  const index = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
  return index >= 0 ? index + 1 : undefined;
}

/** A listed path that is absolute or climbs out of the repository. */
function outsideRepo(p: string): boolean {
  if (p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:/.test(p)) return true;
  if (!p.includes('..')) return false; // relative, and never climbs
  let depth = 0;
  for (const part of p.split(/[/\\]/)) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** Schema problems, duplicate ids, unresolved links, parent cycles, paths outside the repository. */
/** The text of a file of the tree, by its path (read only when a finding needs its line). */
export interface Texts {
  get(file: string): string | undefined;
}

export function treeFindings(tree: Tree, texts: Texts): Finding[] {
  const findings: Finding[] = tree.problems.map((p) => ({
    level: 'error' as const,
    file: p.file,
    ...(p.line ? { line: p.line } : {}),
    rule: 'format',
    message: p.message,
  }));
  // Of handoffs sharing an id, the last one (what a link resolves to).
  const handoffs = new Map<string, Handoff>();
  let shared = false;
  for (const h of tree.handoffs) {
    if (handoffs.has(h.meta.id)) shared = true;
    handoffs.set(h.meta.id, h);
  }
  const others = new Set<string>();
  for (const items of [tree.pins, tree.misnamed])
    for (const item of items) {
      if (handoffs.has(item.meta.id) || others.has(item.meta.id)) shared = true;
      others.add(item.meta.id);
    }
  // Ids are nearly all unique: the items are grouped by id only when one is not.
  if (shared) findings.push(...duplicateIds(tree, texts));
  // A link to an item whose file is there but cannot be read is not a broken link: that
  // file's own `format` error says what is wrong, and one error is enough for one cause.
  const unreadable = new Set(
    tree.problems.map((p) => `${itemKind(p.file)} ${p.file.slice(p.file.lastIndexOf('/') + 1).replace(/\.md$/, '')}`),
  );
  const isHandoff = (id: string) => handoffs.has(id) || unreadable.has(`handoff ${id}`);
  for (const h of tree.handoffs) {
    // The text is read only for a finding's line: most files have none, and check reads
    // every file's front-matter from the cache.
    if (h.meta.parent && !isHandoff(h.meta.parent)) {
      findings.push({
        level: 'error',
        file: h.file,
        line: lineOfKey(texts.get(h.file), 'parent'),
        rule: 'parent',
        message: `parent ${h.meta.parent} is not a handoff in .handoff/handoffs/`,
      });
    }
    if (h.meta.superseded_by && !isHandoff(h.meta.superseded_by)) {
      findings.push({
        level: 'error',
        file: h.file,
        line: lineOfKey(texts.get(h.file), 'superseded_by'),
        rule: 'superseded-by',
        message: `superseded_by ${h.meta.superseded_by} is not a handoff in .handoff/handoffs/`,
      });
    }
    const files = h.meta.files;
    for (let i = 0; i < files.length; i++) {
      const f = files[i]!;
      if (outsideRepo(f.path)) findings.push(pathFinding(h.file, f.path, texts));
      if (f.from !== undefined && outsideRepo(f.from)) findings.push(pathFinding(h.file, f.from, texts));
    }
  }
  for (const cycle of parentCycles(handoffs)) {
    const first = handoffs.get(cycle[0]!)!;
    findings.push({
      level: 'error',
      file: first.file,
      line: lineOfKey(texts.get(first.file), 'parent'),
      rule: 'cycle',
      message: `parent links form a cycle: ${[...cycle, cycle[0]].join(' -> ')}; a handoff's parent must be older than it`,
    });
  }
  const pins = new Set(tree.pins.map((p) => p.meta.id));
  for (const p of tree.pins) {
    if (p.meta.supersedes && !pins.has(p.meta.supersedes) && !unreadable.has(`pin ${p.meta.supersedes}`)) {
      findings.push({
        level: 'error',
        file: p.file,
        line: lineOfKey(texts.get(p.file), 'supersedes'),
        rule: 'supersedes',
        message: `supersedes ${p.meta.supersedes}, which is not a pin in .handoff/pins/`,
      });
    }
  }
  findings.push(...sharedSupersedes(tree.pins, texts));
  return findings;
}

/**
 * Active pins that supersede the same pin: `pin --supersedes` refuses a pin already
 * superseded, but two branches that each superseded it merge into this, and which of the two
 * holds is the user's call.
 */
function sharedSupersedes(pins: readonly Pin[], texts: Texts): Finding[] {
  const bySuperseded = new Map<string, Pin[]>();
  for (const p of activePins(pins)) {
    if (!p.meta.supersedes) continue;
    const same = bySuperseded.get(p.meta.supersedes);
    if (same) same.push(p);
    else bySuperseded.set(p.meta.supersedes, [p]);
  }
  const findings: Finding[] = [];
  for (const [old, same] of bySuperseded) {
    if (same.length < 2) continue;
    for (const p of same) {
      const others = same.filter((o) => o !== p).map((o) => o.meta.id);
      findings.push({
        level: 'error',
        file: p.file,
        line: lineOfKey(texts.get(p.file), 'supersedes'),
        rule: 'supersedes',
        message: `supersedes ${old}, as active pin ${others.join(', ')} does; keep one: retire the other (handoff unpin <id>) or supersede it`,
      });
    }
  }
  return findings;
}

/** Each item whose id another item uses too, in the order of each id's first item. */
function duplicateIds(tree: Tree, texts: Texts): Finding[] {
  const byId = new Map<string, Array<Handoff | Pin>>();
  for (const items of [tree.handoffs, tree.pins, tree.misnamed])
    for (const item of items) {
      const same = byId.get(item.meta.id);
      if (same) same.push(item);
      else byId.set(item.meta.id, [item]);
    }
  const findings: Finding[] = [];
  for (const [id, items] of byId) {
    if (items.length < 2) continue;
    const files = items.map((i) => i.file).sort();
    for (const file of files) {
      findings.push({
        level: 'error',
        file,
        line: lineOfKey(texts.get(file), 'id'),
        rule: 'duplicate-id',
        message: `id ${id} is also used by ${files.filter((f) => f !== file).join(', ')}; ids must be unique (give one a new id, e.g. recreate it with handoff new / handoff pin)`,
      });
    }
  }
  return findings;
}

function pathFinding(file: string, p: string, texts: Texts): Finding {
  return {
    level: 'error',
    file,
    line: lineOfKey(texts.get(file), 'files'),
    rule: 'path',
    message: `listed path '${p}' points outside the repository; paths are relative to its root`,
  };
}

/** Each cycle once, as ids starting from its smallest. */
function parentCycles(handoffs: ReadonlyMap<string, Handoff>): string[][] {
  // Ids are times: links that all go to an older id never lead back, and a cycle needs one
  // to an id not older than its own. Only then are the chains walked.
  let back = false;
  for (const [id, h] of handoffs)
    if (h.meta.parent && h.meta.parent >= id) {
      back = true;
      break;
    }
  if (!back) return [];
  const cycles = new Map<string, string[]>();
  // Which walk reached each id: a handoff whose ancestry was walked once is not walked
  // again, so this is linear in the number of handoffs however long the chains.
  const walkOf = new Map<string, number>();
  const path: string[] = [];
  let walk = 0;
  for (const start of handoffs.keys()) {
    if (walkOf.has(start)) continue;
    walk++;
    path.length = 0;
    let id: string | null | undefined = start;
    while (id && handoffs.has(id) && !walkOf.has(id)) {
      walkOf.set(id, walk);
      path.push(id);
      id = handoffs.get(id)!.meta.parent;
    }
    // Back at an id of this walk: the ids from there on are a cycle.
    if (id && walkOf.get(id) === walk) {
      const cycle = path.slice(path.indexOf(id));
      const min = [...cycle].sort()[0]!;
      const rotated = [...cycle.slice(cycle.indexOf(min)), ...cycle.slice(0, cycle.indexOf(min))];
      cycles.set(rotated.join(), rotated);
    }
  }
  return [...cycles.values()];
}

/** A pin whose text differs from the text it was first committed with. */
export function editedPinFinding(pin: Pin, commit: string, text: string | undefined): Finding {
  const body = text?.indexOf(pin.text);
  const line = text && body !== undefined && body >= 0 ? text.slice(0, body).split('\n').length : undefined;
  return {
    level: 'error',
    file: pin.file,
    ...(line ? { line } : {}),
    rule: 'pin-edited',
    message: `the pin's text was edited in place since ${commit.slice(0, 12)}; pins are kept verbatim: restore the text (git show ${commit.slice(0, 12)}:${pin.file}) and record the change as a new pin: handoff pin --supersedes ${pin.meta.id} "<new text>"`,
  };
}
