// Token counts: the only importer of gpt-tokenizer (o200k_base; same counts as
// js-tiktoken, far cheaper to start). Loaded lazily: its tables are large to import, so never on the
// path of a git hook or an agent's session-start hook.
// Special tokens such as <|endoftext|> are counted as plain text: agent transcripts
// contain them, and the library throws on them unless told otherwise.

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

export function loadTokenCounter(): Promise<Counter> {
  counter ??= import('gpt-tokenizer').then(
    ({ countTokens }) =>
      (text: string) =>
        countTokens(text, { disallowedSpecial: new Set() }),
  );
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}
