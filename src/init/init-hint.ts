// After `new` or `pin` in a repository `handoff init` has not set up: one line saying why
// init matters. Kept apart from init-git.ts so a write does not load the hook installer.
import type { Context } from '../command/context.js';
import { exists } from '../store/fs.js';

export async function hintInit(ctx: Context): Promise<void> {
  const hint = await initHint(ctx);
  if (hint) ctx.stderr(hint);
}

/** The hint's line, or undefined when init has been run; asked while a writer works, printed after. */
export async function initHint(ctx: Context): Promise<string | undefined> {
  const [config, driver] = await Promise.all([exists(ctx.configFile), ctx.git().then((git) => git.driverConfigured())]);
  if (config && driver) return undefined;
  return `handoff: hint: run 'handoff init' once in this repository: it ${driver ? 'writes .handoff/config.yml' : 'registers the merge driver, so merges of the roadmap and of handoffs do not conflict'}`;
}

/** After a file with conflict markers was reported: init only when the merge driver is missing here. */
export async function conflictHint(ctx: Context): Promise<void> {
  if (await (await ctx.git()).driverConfigured()) return;
  ctx.stderr(
    "handoff: hint: run 'handoff init' once in this clone: it registers the merge driver that merges handoffs and the roadmap without conflicts",
  );
}
