import path from 'node:path';
import { activePins } from '../store/pin-scope.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { unifiedDiff } from './text-diff.js';
import { HandoffError } from '../core/errors.js';
import { exists } from '../store/fs.js';
import { readRoadmap, renderWorkTree, writeRoadmap } from './roadmap-file.js';
import { warnProblems } from '../store/store.js';
import type { Problem } from '../store/tree.js';
import { handoffJson, plural, printJson, skippedJson } from '../command/output.js';

export async function run(ctx: Context, args: ArgsOf<'roadmap'>): Promise<Outcome> {
  if (!(await exists(ctx.dir)))
    throw new HandoffError(`no ${ctx.rel(ctx.dir)} directory here; run 'handoff init' first`);
  if (args.values.all) return team(ctx, args.values.json === true);
  const roadmap = ctx.config.roadmap;
  const { tree, content } = await renderWorkTree(ctx, roadmap);
  const shown = ctx.rel(path.join(ctx.root, roadmap));
  if (tree.problems.length > 0)
    return unreadable(ctx, tree.problems, shown, args.values.check === true, args.values.json === true);
  if (args.values.check) {
    const current = await readRoadmap(ctx.root, roadmap);
    const upToDate = current === content;
    const diff = upToDate ? '' : await unifiedDiff(roadmap, current ?? '', content);
    if (args.values.json) printJson(ctx, { file: roadmap, upToDate, exists: current !== undefined, diff, skipped: [] });
    else if (upToDate) ctx.stdout(`${shown} is up to date.\n`);
    else {
      ctx.stdout(diff);
      ctx.stderr(
        `handoff: ${shown} ${current === undefined ? 'does not exist' : 'is out of date'}; run 'handoff roadmap' and commit it`,
      );
    }
    return upToDate ? undefined : 'failure';
  }
  const wrote = await writeRoadmap(ctx.root, roadmap, content);
  const counts = `${plural(tree.handoffs.filter((h) => h.meta.status === 'open').length, 'open handoff')}, ${plural(activePins(tree.pins).length, 'active pin')}`;
  if (args.values.json) printJson(ctx, { file: roadmap, written: wrote, skipped: [] });
  else ctx.stdout(wrote ? `Wrote ${shown} (${counts}).\n` : `${shown} is up to date; nothing changed.\n`);
}

/**
 * A handoff or pin file that cannot be read may be open work: a roadmap rendered without
 * it would drop that work from what people and agents read first, and comparing with one
 * would say nothing true. So the roadmap is left as it is, and the run says which file to
 * fix, as the pre-commit hook does for a staged one.
 */
async function unreadable(
  ctx: Context,
  problems: readonly Problem[],
  shown: string,
  check: boolean,
  json: boolean,
): Promise<Outcome> {
  const roadmap = ctx.config.roadmap;
  if (json) {
    const skipped = skippedJson(problems);
    if (check) {
      const exists = (await readRoadmap(ctx.root, roadmap)) !== undefined;
      printJson(ctx, { file: roadmap, upToDate: null, exists, diff: null, skipped });
    } else printJson(ctx, { file: roadmap, written: false, skipped });
  }
  for (const p of problems) ctx.stderr(`handoff: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  const files = problems.length === 1 ? 'that file' : `those ${problems.length} files`;
  ctx.stderr(
    check
      ? `handoff: cannot check ${shown} while ${files} cannot be read: fix ${problems.length === 1 ? 'it' : 'them'}, then run 'handoff roadmap --check' again`
      : `handoff: left ${shown} as it is: it would leave out ${files}; fix ${problems.length === 1 ? 'it' : 'them'}, then run 'handoff roadmap' again`,
  );
  return 'failure';
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
      skipped: skippedJson(problems),
    });
  else ctx.stdout(renderTeam(refs));
  return warnProblems(ctx, problems) ? 'failure' : undefined;
}
