// A unified diff between two texts: the only importer of `diff` (jsdiff), chosen over
// spawning `git diff --no-index` because both sides are in memory (no temp files).
// Loaded lazily, only when a roadmap is out of date.
// Quirks: the patch opens with a line of "=" before the ---/+++ header (dropped here so
// the output reads like git's), and marks a missing final newline the way GNU diff does.
export async function unifiedDiff(file: string, before: string, after: string): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 2 }).replace(
    /^=+\n/,
    '',
  );
}
