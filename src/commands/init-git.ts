// What `handoff init` adds for git: the roadmap's merge driver (.gitattributes and the
// local config), and with --hooks the hooks themselves.
import type { Context } from '../context.js';
import { addAttributes, attributes, configureDriver, currentCli } from '../io/hooks.js';
import { roadmapPath } from '../io/roadmap-file.js';
import { install } from './hooks.js';

export async function setUpGit(ctx: Context, hooks: boolean): Promise<void> {
  const roadmap = roadmapPath(ctx.config);
  const added = await addAttributes(ctx.root, roadmap);
  if (added) ctx.stdout(`Added '${attributes(roadmap).line}' to ${added}: merges regenerate the roadmap instead of conflicting.\n`);
  if (hooks) await install(ctx);
  else if (await configureDriver(ctx.root, currentCli())) ctx.stdout('Registered the roadmap merge driver in the local git config (merge.handoff-roadmap).\n');
}
