// The strings secret redaction found clean (security/remembered.ts), in their own small
// file beside the cache, `<git dir>/handoff-clean.json` (the long ones by their digest),
// under the identity of the rules that found them clean rather than the tool's version:
// two installs side by side (a global one and a project's) each throw away the other's
// cache, but share this list as long as their rules are the same. Like the cache it only
// saves time: any failure to read or write it is ignored.
import path from 'node:path';
import { readTextNow, writeDisposable } from './fs.js';

/** Its name in the git directory, beside the cache. */
export const CLEAN_FILE = 'handoff-clean.json';
/**
 * What is remembered beyond the texts of the run that saves them, which are all kept,
 * however many (a resume prompt and the strings of its parts make about a hundred with
 * twenty pins; were some cut off, the next session start would redact them again, and the
 * one after it others): the newest other texts, up to this many and this many characters,
 * so that a prompt of a few megabytes (the paths of a large commit) is not read back at
 * every session start once it is no longer the prompt, and the file stays a small part of
 * the caches (a few other branches' prompts and their parts).
 */
const KEPT = 256;
const KEPT_CHARS = 64 * 1024;

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
    added: () => added,
    kept(): string[] {
      const out = [...used];
      let chars = 0;
      for (const t of known) {
        if (out.length >= used.size + KEPT) break;
        if (used.has(t) || chars + t.length > KEPT_CHARS) continue;
        chars += t.length;
        out.push(t);
      }
      return out;
    },
  };
}

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

/** Whole texts, and digests of the long ones, as one set of texts. */
function byLength(whole: ReturnType<typeof remembered>, digests: ReturnType<typeof remembered>) {
  return {
    has: (text: string) => (text.length > WHOLE_CHARS ? digests.has(digest(text)) : whole.has(text)),
    add: (text: string) => (text.length > WHOLE_CHARS ? digests.add(digest(text)) : whole.add(text)),
  };
}

/**
 * The clean strings and lists of strings (by their JSON text) remembered beside
 * `cacheFile` for `rules`; written back by save() when one was added, the newest first.
 */
export function openClean(cacheFile: string | null, rules: string) {
  const file = cacheFile && path.join(path.dirname(cacheFile), CLEAN_FILE);
  const stored = file ? read(file, rules) : { clean: [], lists: [], long: [], longLists: [] };
  const clean = remembered(stored.clean);
  const lists = remembered(stored.lists);
  const long = remembered(stored.long);
  const longLists = remembered(stored.longLists);
  const all = [clean, lists, long, longLists];
  return {
    clean: byLength(clean, long),
    lists: byLength(lists, longLists),
    /**
     * Lists kept by their digest whatever their length: `list`'s goals, which no session
     * start asks about (a thousand of them whole would be most of the file it reads).
     */
    listsByDigest: {
      has: (text: string) => longLists.has(digest(text)),
      add: (text: string) => longLists.add(digest(text)),
    },
    save: async (): Promise<void> => {
      if (!file || !all.some((r) => r.added())) return;
      await writeDisposable(
        file,
        JSON.stringify({
          rules,
          clean: clean.kept(),
          lists: lists.kept(),
          long: long.kept(),
          longLists: longLists.kept(),
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
