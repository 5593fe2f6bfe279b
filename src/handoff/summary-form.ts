// The agent's own compaction summary, as sections of a handoff: the form we ask its
// summarizer for (one `##` heading per section, `- ` bullets), and a lenient reading of
// what it wrote. Summarizers we cannot steer have forms of their own (Claude Code's
// numbered headings, pi's `## Key Decisions`, Gemini CLI's `<state_snapshot>` tags): the
// headings below name theirs too, so an unsteered summary still gives what it has.
// Pure: agents/harvest.ts and `new --sections` check and write.
import { TITLE, type SectionKey } from '../store/sections.js';

/** The sections a summary may fill: the handoff's, less what only git or we know. */
export const SUMMARY_KEYS = [
  'goal',
  'decisions',
  'tried',
  'open_questions',
  'in_progress',
  'next_steps',
  'completed',
] as const satisfies readonly SectionKey[];
export type SummaryKey = (typeof SUMMARY_KEYS)[number];

export type SummarySections = Partial<Record<SummaryKey, string[]>>;

/** What we append to the summarizer's instructions where an agent lets a hook add some. */
export function summaryInstructions(): string {
  const h = (k: SummaryKey) => `## ${TITLE[k]}`;
  return [
    'At the end of the summary, add these sections in exactly this Markdown form (git-handoff reads them into the handoff), one `- ` bullet per item, "- none" when a section has nothing:',
    `${h('goal')}: the user's request in the user's own words, as first asked, then how it changed.`,
    `${h('decisions')}: "- <decision> — why: <reason>".`,
    `${h('tried')}: "- <approach> — why: <why it was abandoned>", including approaches the user turned down.`,
    `${h('open_questions')}: questions nobody has answered yet.`,
    `${h('in_progress')}: what was being done when the session was compacted.`,
    `${h('next_steps')}: what to do next, in order.`,
    `${h('completed')}: what is done.`,
    'Name files by their path in the repository, in backticks. Keep pinned constraints out of these sections: git-handoff keeps them word for word itself.',
  ].join('\n');
}

// Lowercased headings (words only) that mean a section, ours first, then other agents' own forms.
const ALIASES: Record<string, SummaryKey | 'ignored'> = {
  goal: 'goal',
  'the users request': 'goal',
  'users request': 'goal',
  'user request': 'goal',
  'primary request and intent': 'goal',
  'overall goal': 'goal',
  request: 'goal',
  decisions: 'decisions',
  'key decisions': 'decisions',
  'decisions made': 'decisions',
  'tried and abandoned': 'tried',
  abandoned: 'tried',
  'abandoned approaches': 'tried',
  'approaches abandoned': 'tried',
  'dead ends': 'tried',
  'failed approaches': 'tried',
  'open questions': 'open_questions',
  questions: 'open_questions',
  'unresolved questions': 'open_questions',
  blocked: 'open_questions',
  'in progress': 'in_progress',
  'current work': 'in_progress',
  'work in progress': 'in_progress',
  'next steps': 'next_steps',
  'next step': 'next_steps',
  'optional next step': 'next_steps',
  'pending tasks': 'next_steps',
  'current plan': 'next_steps',
  completed: 'completed',
  done: 'completed',
  // A summary never writes pins: these sections are read past.
  'pinned constraints': 'ignored',
  pins: 'ignored',
  'pinned constraints verbatim': 'ignored',
};

const words = (t: string) =>
  t
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z]+/g, ' ')
    .trim();

/** The heading a line opens, if it is one: `## Title`, `**Title:**`, `1. Title:`, `<title>`. */
function headingOf(line: string): string | undefined {
  const t = line.trim();
  const md = /^#{1,4}\s+(.+?)\s*#*$/.exec(t);
  if (md) return md[1];
  const tag = /^<([a-z_]+)>$/.exec(t);
  if (tag && tag[1] !== 'state_snapshot' && tag[1] !== 'summary') return tag[1]!.replace(/_/g, ' ');
  const label = /^(?:\d+\.\s*)?\*{0,2}([A-Za-z][A-Za-z '’&/-]{1,60}?)\*{0,2}:\*{0,2}$/.exec(t);
  if (label) return label[1];
  return undefined;
}

const BULLET = /^\s*(?:[-*+•]|\d+[.)])\s+(.*)$/;
// "- none", "N/A": a section the summarizer filled with nothing.
const EMPTY = /^(?:none|n\/a|nothing(?: yet)?|no(?:ne)? so far|-)\.?$/i;
// Gemini CLI's plan marks each step.
const STATUS = /^\[(DONE|IN PROGRESS|TODO)\]\s*/i;
// pi ticks its progress items.
const CHECKBOX = /^\[([ xX])\]\s*/;
// Our own headings, word for word: where a summary has both, ours win over the agent's own form.
const OURS = new Map(SUMMARY_KEYS.map((k) => [words(TITLE[k]), k]));

export interface ParsedSummary {
  sections: SummarySections;
  /** Items in all sections. */
  items: number;
  /** Items under a pins heading, read past. */
  ignored: number;
  /** The sections the summary wrote, even with nothing in them ("- none"). */
  present: SummaryKey[];
  /** Text under no section we read (before the first heading, or under another heading), for summary-prose.ts. */
  prose: string[];
}

/** The handoff's sections in a summary; headings are matched case-insensitively, any may be missing. */
export function parseSummary(text: string): ParsedSummary {
  const sections: SummarySections = {};
  let ignored = 0;
  let key: SummaryKey | 'ignored' | undefined;
  let prose: string[] = [];
  let bullets = 0;
  const add = (k: SummaryKey | 'ignored', item: string): { k: SummaryKey; i: number } | undefined => {
    const t = item.replace(/\s+/g, ' ').trim();
    if (t === '' || EMPTY.test(t)) return undefined;
    if (k === 'ignored') {
      ignored++;
      return undefined;
    }
    let target = k;
    const status = STATUS.exec(t) ?? CHECKBOX.exec(t);
    if (status && k === 'next_steps' && status[1]!.length > 1) {
      const s = status[1]!.toUpperCase();
      target = s === 'DONE' ? 'completed' : s === 'IN PROGRESS' ? 'in_progress' : 'next_steps';
    }
    const list = (sections[target] ??= []);
    list.push(status ? t.slice(status[0].length) : t);
    return { k: target, i: list.length - 1 };
  };
  // A section written as prose (no bullets) is one item: a goal often is.
  const close = () => {
    if (key && bullets === 0 && prose.length > 0) add(key, prose.join(' '));
    prose = [];
    bullets = 0;
  };
  let last: { k: SummaryKey; i: number } | undefined;
  const fromOurs = new Set<SummaryKey>();
  const present = new Set<SummaryKey>();
  const other: string[] = [];
  let block: string[] = [];
  const endBlock = () => {
    if (block.some((l) => l.trim() !== '')) other.push(block.join('\n').trim());
    block = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*<\/[a-z_]+>\s*$/.test(raw) || /^\s*<!--.*-->\s*$/.test(raw)) continue;
    const heading = headingOf(raw);
    if (heading !== undefined) {
      close();
      endBlock();
      key = ALIASES[words(heading)];
      if (key && key !== 'ignored') present.add(key);
      const ours = OURS.get(words(heading));
      if (ours && !fromOurs.has(ours)) {
        fromOurs.add(ours);
        delete sections[ours];
      }
      last = undefined;
      continue;
    }
    if (!key) {
      block.push(raw);
      continue;
    }
    const bullet = BULLET.exec(raw);
    if (bullet) {
      bullets++;
      last = add(key, bullet[1]!);
    } else if (raw.trim() === '') {
      last = undefined;
    } else if (last && /^\s+/.test(raw)) {
      // A wrapped bullet continues on an indented line.
      const list = sections[last.k]!;
      list[last.i] = `${list[last.i]} ${raw.trim()}`;
    } else if (bullets === 0) {
      prose.push(raw.trim());
    }
  }
  close();
  endBlock();
  const items = Object.values(sections).reduce((n, l) => n + l.length, 0);
  return { sections, items, ignored, present: SUMMARY_KEYS.filter((k) => present.has(k)), prose: other };
}
