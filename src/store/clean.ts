// The strings secret redaction found clean (security/remembered.ts), in their own small
// file beside the cache, `<git dir>/handoff-clean.json` (the longer ones by their digest),
// under the identity of the rules that found them clean rather than the tool's version:
// two installs side by side (a global one and a project's) each throw away the other's
// cache, but share this list as long as their rules are the same. Like the cache it only
// saves time: any failure to read or write it is ignored.
import path from 'node:path';
import { readTextNow, writeDisposable } from './fs.js';

/** Its name in the git directory, beside the cache. */
export const CLEAN_FILE = 'handoff-clean.json';
/**
 * What is remembered beyond the texts of the run that saves them, which are all kept (the
 * longer ones by their digest), however many (a resume prompt and the strings of its parts make about a hundred with
 * twenty pins; were some cut off, the next session start would redact them again, and the
 * one after it others): of the other texts, the newest short ones whole, up to this many
 * and this many characters, and the longer ones by their digest, up to KEPT_DIGESTS. A
 * long text of another run is most often a resume prompt: one is made after each commit
 * and none comes back once the next is made (the resume snapshot keeps each handoff's
 * last), so whole they were most of the file, and by digest they still answer a branch
 * switched back to.
 */
const KEPT = 256;
const KEPT_CHARS = 16 * 1024;
/** Texts longer than this are kept by their digest, not whole (hashed when saved, or when asked about and not found whole). */
const SHORT = 512;
const KEPT_DIGESTS = 128;

/** Texts found clean, those a run used written back first. */
function remembered(stored: readonly string[]) {
  const known = new Set(stored);
  const used = new Set<string>();
  let added = false;
  return {
    has(text: string): boolean {
      if (!known.has(text) && !used.has(text)) return false;
      used.add(text);
      return true;
    },
    add(text: string): void {
      used.add(text);
      added = true;
    },
    any: () => known.size > 0 || used.size > 0,
    added: () => added,
    used: () => used,
    /** The texts stored that this run did not use, the newest first. */
    *older(): Generator<string> {
      for (const t of known) if (!used.has(t)) yield t;
    },
  };
}

type Remembered = ReturnType<typeof remembered>;

/**
 * Texts longer than this are remembered by their SHA-256 digest, kept apart from the whole
 * ones: the prompt that lists the paths of a large commit, and that list, are megabytes,
 * and reading them back whole at every session start cost more than hashing them. Finding
 * another text with the same digest is out of reach, so a digest stands for its one text;
 * node:crypto loads only when such a text is asked about.
 */
const WHOLE_CHARS = 64 * 1024;

let last: { text: string; digest: string } | undefined;
function digest(text: string): string {
  if (last?.text !== text)
    last = {
      text,
      digest: process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest('base64'),
    };
  return last.digest;
}

/**
 * Whole texts, and digests of the longer ones, as one set of texts. A text not found whole
 * is hashed only when it may have been kept by its digest (longer than SHORT, and some
 * digest stored), and only then: a session start that finds its strings whole hashes
 * nothing, and one whose resume prompt is remembered (resume/snapshot.ts) asks about none.
 */
function byLength(whole: Remembered, digests: Remembered) {
  return {
    has(text: string): boolean {
      if (text.length > WHOLE_CHARS) return digests.has(digest(text));
      if (whole.has(text)) return true;
      return text.length > SHORT && digests.any() && digests.has(digest(text));
    },
    add: (text: string) => (text.length > WHOLE_CHARS ? digests.add(digest(text)) : whole.add(text)),
    added: () => whole.added() || digests.added(),
    /**
     * What is written back: every text this run used, the short ones whole and the longer
     * ones by digest (the run's resume prompt, which the resume snapshot holds whole already,
     * was a third of the file), then others' (see KEPT).
     */
    kept(): { whole: string[]; digests: string[] } {
      const keptWhole: string[] = [];
      const keptDigests = [...digests.used()];
      for (const t of whole.used()) {
        if (t.length > SHORT) keptDigests.push(digest(t));
        else keptWhole.push(t);
      }
      const usedWhole = keptWhole.length;
      const limit = keptDigests.length + KEPT_DIGESTS;
      let chars = 0;
      for (const t of whole.older()) {
        if (t.length > SHORT) {
          if (keptDigests.length < limit) keptDigests.push(digest(t));
        } else if (keptWhole.length < usedWhole + KEPT && chars + t.length <= KEPT_CHARS) {
          chars += t.length;
          keptWhole.push(t);
        }
      }
      for (const d of digests.older()) {
        if (keptDigests.length >= limit) break;
        keptDigests.push(d);
      }
      return { whole: keptWhole, digests: [...new Set(keptDigests)] };
    },
  };
}

/**
 * The clean strings and lists of strings (by their JSON text) remembered beside
 * `cacheFile` for `rules`; written back by save() when one was added, the newest first.
 */
export function openClean(cacheFile: string | null, rules: string) {
  const file = cacheFile && path.join(path.dirname(cacheFile), CLEAN_FILE);
  const stored = file ? read(file, rules) : { clean: [], lists: [], long: [], longLists: [] };
  const longLists = remembered(stored.longLists);
  const clean = byLength(remembered(stored.clean), remembered(stored.long));
  const lists = byLength(remembered(stored.lists), longLists);
  return {
    clean: { has: clean.has, add: clean.add },
    lists: { has: lists.has, add: lists.add },
    /**
     * Lists kept by their digest whatever their length: `list`'s goals, which no session
     * start asks about (a thousand of them whole would be most of the file it reads).
     */
    listsByDigest: {
      has: (text: string) => longLists.has(digest(text)),
      add: (text: string) => longLists.add(digest(text)),
    },
    save: async (): Promise<void> => {
      if (!file || !(clean.added() || lists.added())) return;
      const texts = clean.kept();
      const listTexts = lists.kept();
      await writeDisposable(
        file,
        JSON.stringify({
          rules,
          clean: texts.whole,
          lists: listTexts.whole,
          long: texts.digests,
          longLists: listTexts.digests,
        }),
      );
    },
  };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []);

function read(file: string, rules: string): { clean: string[]; lists: string[]; long: string[]; longLists: string[] } {
  try {
    const data = JSON.parse(readTextNow(file) ?? '{}') as Record<string, unknown>;
    if (data.rules === rules)
      return {
        clean: strings(data.clean),
        lists: strings(data.lists),
        long: strings(data.long),
        longLists: strings(data.longLists),
      };
  } catch {
    // unreadable: nothing remembered
  }
  return { clean: [], lists: [], long: [], longLists: [] };
}
