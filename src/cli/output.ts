// Shared by the read commands: JSON out, and one-line summaries of handoffs and pins.
import type { Context } from './context.js';
import type { Handoff } from '../store/handoff.js';
import { inline } from '../store/markdown.js';

export function printJson(ctx: Context, value: unknown): void {
  ctx.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function handoffJson(h: Pick<Handoff, 'file' | 'meta'>) {
  return { ...h.meta, file: h.file };
}

export function truncate(text: string, width: number): string {
  const flat = inline(text);
  return flat.length > width ? `${flat.slice(0, width - 3)}...` : flat;
}

/** "1 handoff", "2 handoffs". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
