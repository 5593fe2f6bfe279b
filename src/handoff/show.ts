import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { sectionText } from '../store/markdown.js';
import { findItem, loadHandoffs } from '../store/store.js';
import { readText } from '../store/fs.js';
import { handoffJson, printJson } from '../command/output.js';
import path from 'node:path';
import { scrubForPrint } from '../security/secrets.js';

export async function run(ctx: Context, args: ArgsOf<'show'>): Promise<Outcome> {
  const { items, problems } = await loadHandoffs(ctx);
  const handoff = await findItem(ctx, items, args.positionals[0], 'handoff', problems);
  const where = `handoff ${handoff.meta.id}`;
  if (args.values.json) {
    const sections = handoff.body.sections.map((s) => ({ title: s.title, body: sectionText(s.content) }));
    // Text before the first heading is the writer's too (a body written without headings is all preamble).
    const { value, notice } = scrubForPrint(
      { ...handoffJson(handoff), preamble: sectionText(handoff.body.preamble), sections },
      where,
    );
    printJson(ctx, value);
    if (notice) ctx.stderr(notice);
  } else {
    const { value, notice } = scrubForPrint((await readText(path.resolve(ctx.root, handoff.file))) ?? '', where);
    ctx.stdout(value);
    if (notice) ctx.stderr(notice);
  }
}
