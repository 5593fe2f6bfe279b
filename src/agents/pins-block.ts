// The instruction-file block with the active pins in it, word for word. Gemini CLI escapes
// `<` and `>` in what a hook injects, but passes GEMINI.md through unaltered: there the
// pins reach the model exactly as written. Install writes the block; `pin`, `unpin` and
// `pin --supersedes` bring every installed block up to date at once (so the next session
// reads the new pins, not the ones before), and Gemini CLI's session-start hook does too,
// for a change that came in through a merge or a checkout.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { activePins } from '../store/pin-scope.js';
import { loadPins } from '../store/store.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { readTemplate } from '../store/templates.js';
import { promptPins, renderPin } from '../resume/prompt.js';
import { hasBlock, upsertBlock } from './marked-block.js';
import { AGENTS } from './agents.js';

/** The block's text: the shared instructions, then the pins when there are any. */
export async function blockContent(ctx: Context, withPins: boolean): Promise<string> {
  // The roadmap's path is the configured one; the template names it with a placeholder.
  const base = (await readTemplate('agent-block.md')).replace('{{roadmap}}', ctx.config.roadmap);
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

/** Rewrites every installed instruction block that is not current; one line per file changed. */
export async function refreshBlocks(ctx: Context): Promise<void> {
  const done = new Set<string>();
  for (const agent of AGENTS) {
    const block = agent.block;
    if (!block || done.has(block.file)) continue;
    done.add(block.file);
    if (await refreshPinsBlock(ctx, block.file, block.pins === true, block.limitBytes))
      ctx.stderr(
        `handoff: ${block.file}: brought the handoff block up to date${block.pins ? ' (the pinned constraints)' : ''}`,
      );
  }
}

/** Rewrites the block in `file` when it is not the current one; answers whether it did. */
export async function refreshPinsBlock(
  ctx: Context,
  file: string,
  withPins = true,
  limitBytes?: number,
): Promise<boolean> {
  const full = path.join(ctx.root, file);
  const before = await readText(full);
  if (before === undefined || !hasBlock(before, file)) return false;
  const result = upsertBlock(before, await blockContent(ctx, withPins), file, limitBytes);
  if (result.action === 'unchanged') return false;
  await replaceFileAtomic(full, result.text);
  return true;
}
