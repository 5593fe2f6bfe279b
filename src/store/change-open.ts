// An open handoff's file changed by the tool (superseded by `new`, closed as landed by
// `check` and the post-merge hook): as text when it is still in the form the tool wrote it
// (plain-front-matter.ts changedPlain), else through its YAML document, which keeps a
// person's edits; the library is loaded only then.
import type { Handoff, HandoffMeta } from './handoff.js';
import { type Added, changedPlain } from './plain-front-matter.js';

/**
 * The text `text` (the file as read again now) becomes, what that parses to (undefined when
 * it no longer validates: the writer parses it and says why), and the front-matter it held
 * before the change (the caller may find it is no longer open).
 */
export async function changeOpen(
  text: string,
  handoff: Pick<Handoff, 'file' | 'meta'>,
  status: HandoffMeta['status'],
  added: Added,
): Promise<{ text: string; parsed: Handoff | undefined; was: HandoffMeta }> {
  const plain = changedPlain(text, handoff.file, handoff.meta, status, added);
  if (plain) return { ...plain, was: handoff.meta };
  const { parseHandoff, updateHandoffParsed } = await import('./handoff.js');
  const fresh = parseHandoff(text, handoff.file);
  return { ...updateHandoffParsed(fresh, { status, ...Object.fromEntries(added) }), was: fresh.meta };
}
