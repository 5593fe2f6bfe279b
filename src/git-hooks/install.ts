// Installing the git hooks and the roadmap's merge driver, with one line per action:
// `handoff hooks install` and `handoff init --hooks`.
import type { Context } from '../command/context.js';
import { configureDriver, recordedCli, hooksDir, installHooks, otherManagers, type HookState } from './hook-files.js';

export const SAID: Record<HookState, string> = {
  created: 'installed',
  added: 'added to your existing hook',
  wrapped: 'installed; your non-shell hook runs after it, moved to',
  updated: 'updated',
  unchanged: 'already installed; unchanged',
  removed: 'removed',
  restored: 'removed; your own hook is back in place',
  absent: 'not installed; nothing to remove',
};

export const MANAGER_NOTES: Record<string, string> = {
  lefthook:
    "lefthook rewrites .git/hooks on 'lefthook install': add the hook to lefthook.yml instead (docs/git-integration.md in the git-handoff package shows the lines)",
  'pre-commit':
    "the pre-commit framework rewrites .git/hooks on 'pre-commit install': add a local hook to .pre-commit-config.yaml instead (docs/git-integration.md in the git-handoff package shows the lines)",
};

/** Installs the hooks and the merge-driver config, printing one line per action. Shared with `init --hooks`. */
export async function install(ctx: Context): Promise<void> {
  const hd = await hooksDir(await ctx.git());
  const cli = recordedCli();
  for (const r of await installHooks(hd, hd.shared ? null : cli)) {
    ctx.stdout(
      `${r.hook}: ${SAID[r.state]}${r.state === 'wrapped' ? ` ${ctx.rel(r.file)}.handoff-chained` : ''} (${ctx.rel(r.file)})\n`,
    );
  }
  if (await configureDriver(await ctx.git(), cli, ctx.config.roadmap))
    ctx.stdout(
      `Registered the merge driver in this clone (merge.handoff-roadmap in the local git config, the roadmap routed to it in .git/info/attributes).\n`,
    );
  for (const m of await otherManagers(ctx.root)) ctx.stderr(`handoff: note: ${MANAGER_NOTES[m]}`);
  if (hd.manager === 'husky')
    ctx.stderr('handoff: note: husky keeps hooks in the repository; commit .husky/ so the team gets them');
}
