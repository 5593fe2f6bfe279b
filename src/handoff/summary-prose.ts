// A summary in free prose still counts: it is the densest account of the session there is.
// What the summary says outside the sections we read (all of it, when it has none: Codex
// CLI's own summary, Copilot CLI's, a pi or Gemini summary in words) goes sentence by
// sentence through the classifier the transcripts use (transcripts/sentence-class.ts), and
// the decisions, approaches given up and open questions it finds fill the sections the
// summary did not write itself: a section it wrote (even "- none") is its own word and wins.
// Pure: agents/harvest.ts folds the result like any other summary.
import { classify, type SentenceClass } from '../transcripts/sentence-class.js';
import { MAX_QUOTE, sentences } from '../transcripts/sentence-rules.js';
import type { ParsedSummary, SummaryKey, SummarySections } from './summary-form.js';

/** Where each class the classifier finds in prose goes; the others (none, an answer, a constraint: pins never come from a summary) go nowhere. */
const SECTION_OF: Partial<Record<SentenceClass, SummaryKey>> = {
  decision: 'decisions',
  reversal: 'decisions',
  abandoned: 'tried',
  question: 'open_questions',
};

// A long summary is read in full, but a section takes this many items from prose at most:
// a summary retelling a whole session should not outweigh the rest of the handoff.
const MAX_PER_SECTION = 8;

export interface ProseItems {
  sections: SummarySections;
  items: number;
}

/** The items the summary's prose gives, for the sections it did not write. */
export function proseItems(parsed: ParsedSummary): ProseItems {
  const sections: SummarySections = {};
  const written = new Set(parsed.present);
  let items = 0;
  for (const block of parsed.prose) {
    // Tags around a summary (`<summary>`, Copilot CLI's `<overview>`) are not words of it.
    const text = block.replace(/<\/?[a-z_]+>/g, ' ');
    for (const sentence of sentences(text)) {
      if (sentence.length > MAX_QUOTE) continue;
      // The summarizer writes as the agent. No earlier decisions are given: a reversal lands
      // among the decisions as a decision does, so they would only turn other sentences into reversals.
      const key = SECTION_OF[classify(sentence, { speaker: 'assistant' })];
      if (!key || written.has(key)) continue;
      const list = (sections[key] ??= []);
      if (list.length >= MAX_PER_SECTION || list.includes(sentence)) continue;
      list.push(sentence);
      items++;
    }
  }
  return { sections, items };
}

/** The summary with what its prose gives added: the sections it wrote, then the ones prose filled. */
export function withProse(parsed: ParsedSummary): { summary: ParsedSummary; fromProse: number } {
  const prose = proseItems(parsed);
  if (prose.items === 0) return { summary: parsed, fromProse: 0 };
  return {
    summary: { ...parsed, sections: { ...parsed.sections, ...prose.sections }, items: parsed.items + prose.items },
    fromProse: prose.items,
  };
}
