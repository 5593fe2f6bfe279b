import path from 'node:path';
import { activePins } from '../store/pin-scope.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { unifiedDiff } from './text-diff.js';
import { HandoffError } from '../core/errors.js';
import { exists } from '../store/fs.js';
import { readRoadmap, renderWorkTree, writeRoadmap } from './roadmap-file.js';
import { warnProblems } from '../store/store.js';
import { handoffJson, plural, printJson } from '../command/output.js';

export async function run(ctx: Context, args: ArgsOf<'roadmap'>): Promise<Outcome> {
  if (!(await exists(ctx.dir)))
    throw new HandoffError(`no ${ctx.rel(ctx.dir)} directory here; run 'handoff init' first`);
  if (args.values.all) return team(ctx, args.values.json === true);
  const roadmap = ctx.config.roadmap;
  const { tree, content } = await renderWorkTree(ctx, roadmap);
  // A file that could not be read is a failure, as in `list` and `pins`, after the roadmap is written.
  const unreadable = warnProblems(ctx, tree.problems);
  const shown = ctx.rel(path.join(ctx.root, roadmap));
  if (args.values.check) {
    const current = await readRoadmap(ctx.root, roadmap);
    const upToDate = current === content;
    const diff = upToDate ? '' : await unifiedDiff(roadmap, current ?? '', content);
    if (args.values.json) printJson(ctx, { file: roadmap, upToDate, exists: current !== undefined, diff });
    else if (upToDate) ctx.stdout(`${shown} is up to date.\n`);
    else {
      ctx.stdout(diff);
      ctx.stderr(
        `handoff: ${shown} ${current === undefined ? 'does not exist' : 'is out of date'}; run 'handoff roadmap' and commit it`,
      );
    }
    return upToDate && !unreadable ? undefined : 'failure';
  }
  const wrote = await writeRoadmap(ctx.root, roadmap, content);
  const counts = `${plural(tree.handoffs.filter((h) => h.meta.status === 'open').length, 'open handoff')}, ${plural(activePins(tree.pins).length, 'active pin')}`;
  if (args.values.json) printJson(ctx, { file: roadmap, written: wrote });
  else ctx.stdout(wrote ? `Wrote ${shown} (${counts}).\n` : `${shown} is up to date; nothing changed.\n`);
  return unreadable ? 'failure' : undefined;
}

/** `roadmap --all`: every branch's open work, printed (see team.ts for why it is not written). */
async function team(ctx: Context, json: boolean): Promise<Outcome> {
  const [{ teamView }, { renderTeam }] = await Promise.all([import('./branches.js'), import('./team.js')]);
  const { refs, problems } = await teamView(ctx);
  if (json)
    printJson(ctx, {
      branches: refs.map((r) => ({
        ref: r.ref,
        handoffs: r.handoffs.filter((h) => h.meta.status === 'open').map(handoffJson),
      })),
    });
  else ctx.stdout(renderTeam(refs));
  return warnProblems(ctx, problems) ? 'failure' : undefined;
}
