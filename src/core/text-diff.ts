// A unified diff between two texts: the only importer of `diff` (jsdiff). Loaded lazily
// (only when a roadmap is out of date), so the common paths never pay for it.
// Quirk: createTwoFilesPatch prints an "Index:"-less header and a "\ No newline" marker
// like GNU diff; the "===" separator line appears only with createPatch, so we use this.
export async function unifiedDiff(file: string, before: string, after: string): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 2 });
}
