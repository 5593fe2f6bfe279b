// Did a pin reach the model: its text, as the agent recorded what it passed on, in one line
// of a session file. Session files are JSON (one record a line, or one document), so the
// text is looked for JSON-escaped; Gemini CLI escapes `<` and `>` in hook context (a pin
// reaches it verbatim through GEMINI.md), so that form counts too.

/** The forms a pin's text may take in a session file's line. */
export function pinForms(text: string): string[] {
  const trimmed = text.trim();
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const escaped = trimmed.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [...new Set([json(trimmed), trimmed, json(escaped)])];
}

export interface Seen {
  /** Pin ids found, in the order given. */
  arrived: string[];
  missing: string[];
}

/** Feeds lines to a search for every pin; `done` says when nothing is left to find. */
export function pinSearch(pins: ReadonlyArray<{ id: string; text: string }>) {
  const left = new Map(pins.map((p) => [p.id, pinForms(p.text)]));
  const found = new Set<string>();
  return {
    line(line: string): void {
      for (const [id, forms] of left)
        if (forms.some((f) => line.includes(f))) {
          found.add(id);
          left.delete(id);
        }
    },
    done: () => left.size === 0,
    result: (): Seen => ({
      arrived: pins.filter((p) => found.has(p.id)).map((p) => p.id),
      missing: pins.filter((p) => !found.has(p.id)).map((p) => p.id),
    }),
  };
}
