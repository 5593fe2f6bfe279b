// The strings secret redaction found clean (security/remembered.ts), in their own small
// file beside the cache, `<git dir>/handoff-clean.json`, under the identity of the rules
// that found them clean rather than the tool's version: two installs side by side (a
// global one and a project's) each throw away the other's cache, but share this list as
// long as their rules are the same. Like the cache it only saves time: any failure to
// read or write it is ignored.
import path from 'node:path';
import { readTextNow, writeDisposable } from './fs.js';

/** Its name in the git directory, beside the cache. */
export const CLEAN_FILE = 'handoff-clean.json';
/** How many clean texts are remembered: a resume prompt and the strings of its parts make about 20. */
const KEPT = 64;

/** The clean strings remembered beside `cacheFile` for `rules`; they are written back by save(), the newest first. */
export function openClean(cacheFile: string | null, rules: string) {
  const file = cacheFile && path.join(path.dirname(cacheFile), CLEAN_FILE);
  const known = new Set<string>(file ? read(file, rules) : []);
  const used = new Set<string>();
  let added = false;
  return {
    clean: {
      has(text: string): boolean {
        if (!known.has(text) && !used.has(text)) return false;
        used.add(text);
        return true;
      },
      add(text: string): void {
        used.add(text);
        added = true;
      },
    },
    save: async (): Promise<void> => {
      if (!file || !added) return;
      added = false;
      const clean = [...used, ...[...known].filter((t) => !used.has(t))].slice(0, KEPT);
      await writeDisposable(file, JSON.stringify({ rules, clean }));
    },
  };
}

function read(file: string, rules: string): string[] {
  try {
    const data = JSON.parse(readTextNow(file) ?? '{}') as { rules?: unknown; clean?: unknown };
    if (data.rules === rules && Array.isArray(data.clean))
      return data.clean.filter((t): t is string => typeof t === 'string');
  } catch {
    // unreadable: nothing remembered
  }
  return [];
}
