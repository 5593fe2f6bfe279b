// The instruction-file block with the active pins in it, word for word. Gemini CLI escapes
// `<` and `>` in what a hook injects, but passes GEMINI.md through unaltered: there the
// pins reach the model exactly as written. Install writes the block; Gemini CLI's session
// start hook brings it up to date when the pins have changed since.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { activePins } from '../store/pin-scope.js';
import { loadPins } from '../store/store.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { promptPins, renderPin } from '../resume/prompt.js';
import { hasBlock, upsertBlock } from './marked-block.js';

/** The block's text: the shared instructions, then the pins when there are any. */
export async function blockContent(ctx: Context, withPins: boolean): Promise<string> {
  const base = await readTemplate('agent-block.md');
  if (!withPins) return base;
  const pins = activePins((await loadPins(ctx)).items);
  if (pins.length === 0) return base;
  // Fenced as the resume prompt shows them: a pin of several lines or with Markdown in it stays whole.
  const lines = [
    '',
    '### Pinned constraints',
    '',
    'Follow these exactly, as written (handoff keeps this list current):',
    '',
    promptPins(pins)
      .map((p) => renderPin(p).replace(/^### /, '#### '))
      .join('\n\n'),
  ];
  return `${base.replace(/\n+$/, '')}\n${lines.join('\n')}\n`;
}

/** Rewrites the block in `file` when the pins in it are not the current ones; answers whether it did. */
export async function refreshPinsBlock(ctx: Context, file: string): Promise<boolean> {
  const full = path.join(ctx.root, file);
  const before = await readText(full);
  if (before === undefined || !hasBlock(before, file)) return false;
  const result = upsertBlock(before, await blockContent(ctx, true), file);
  if (result.action === 'unchanged') return false;
  await replaceFileAtomic(full, result.text);
  return true;
}
