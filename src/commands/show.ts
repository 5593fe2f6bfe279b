import type { Args } from './spec.js';
import type { Context } from '../context.js';
import { sectionText } from '../core/markdown.js';
import { findById, loadHandoffs } from '../io/store.js';
import { readText } from '../io/fs.js';
import { handoffJson, printJson } from './output.js';
import path from 'node:path';

export async function run(ctx: Context, args: Args): Promise<number> {
  const { items, problems } = await loadHandoffs(ctx);
  const handoff = findById(items, args.positionals[0]!, 'handoff', problems);
  if (args.values.json) {
    const sections = Object.fromEntries(handoff.body.sections.map((s) => [s.title, sectionText(s.content)]));
    printJson(ctx, { ...handoffJson(handoff), sections });
  } else {
    ctx.stdout((await readText(path.resolve(ctx.cwd, handoff.file))) ?? '');
  }
  return 0;
}
