// What `handoff init` adds for git: the roadmap's merge driver (.gitattributes and the
// local config), and with --hooks the hooks themselves.
import type { Context } from '../cli/context.js';
import { addAttributes, attributes, configureDriver, currentCli } from '../git-hooks/hook-files.js';
import { roadmapPath } from '../roadmap/roadmap-file.js';
import { install } from '../git-hooks/hooks.js';

export async function setUpGit(ctx: Context, hooks: boolean): Promise<void> {
  const roadmap = roadmapPath(ctx.config);
  const added = await addAttributes(ctx.root, roadmap);
  if (added) ctx.stdout(`Added '${attributes(roadmap).line}' to ${added}: merges regenerate the roadmap instead of conflicting.\n`);
  if (hooks) await install(ctx);
  else if (await configureDriver(ctx.root, currentCli())) ctx.stdout('Registered the roadmap merge driver in the local git config (merge.handoff-roadmap).\n');
}
