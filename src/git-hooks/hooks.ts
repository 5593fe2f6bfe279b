// `handoff hooks install | uninstall | status`.
import type { ArgsOf, Outcome } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import {
  attributes,
  configureDriver,
  currentCli,
  driverConfigured,
  hasAttributes,
  hooksDir,
  hookStatus,
  installHooks,
  otherManagers,
  uninstallHooks,
  type HookState,
} from './hook-files.js';
import { printJson } from '../cli/output.js';

const SAID: Record<HookState, string> = {
  created: 'installed',
  added: 'added to your existing hook',
  wrapped: 'installed; your non-shell hook runs after it, moved to',
  updated: 'updated',
  unchanged: 'already installed; unchanged',
  removed: 'removed',
  restored: 'removed; your own hook is back in place',
  absent: 'not installed; nothing to remove',
};

const MANAGER_NOTES: Record<string, string> = {
  lefthook: "lefthook rewrites .git/hooks on 'lefthook install': add the hook to lefthook.yml instead (docs/git-integration.md in the git-handoff package shows the lines)",
  'pre-commit': "the pre-commit framework rewrites .git/hooks on 'pre-commit install': add a local hook to .pre-commit-config.yaml instead (docs/git-integration.md in the git-handoff package shows the lines)",
};

/** Installs the hooks and the merge-driver config, printing one line per action. Shared with `init --hooks`. */
export async function install(ctx: Context): Promise<void> {
  const hd = await hooksDir(ctx.root);
  const cli = currentCli();
  for (const r of await installHooks(hd, hd.shared ? null : cli)) {
    ctx.stdout(`${r.hook}: ${SAID[r.state]}${r.state === 'wrapped' ? ` ${ctx.rel(r.file)}.handoff-chained` : ''} (${ctx.rel(r.file)})\n`);
  }
  if (await configureDriver(ctx.root, cli)) ctx.stdout(`Registered the roadmap merge driver in the local git config (merge.handoff-roadmap).\n`);
  for (const m of await otherManagers(ctx.root)) ctx.stderr(`handoff: note: ${MANAGER_NOTES[m]}`);
  if (hd.manager === 'husky') ctx.stderr('handoff: note: husky keeps hooks in the repository; commit .husky/ so the team gets them');
}

export async function run(ctx: Context, args: ArgsOf<'hooks'>): Promise<Outcome> {
  const action = args.positionals[0];
  if (action === 'install') {
    await install(ctx);
    return;
  }
  if (action === 'uninstall') {
    const hd = await hooksDir(ctx.root);
    for (const r of await uninstallHooks(hd)) ctx.stdout(`${r.hook}: ${SAID[r.state]} (${ctx.rel(r.file)})\n`);
    // The merge driver is not a hook: .gitattributes routes the roadmap to it, and without it merges conflict.
    if (await driverConfigured(ctx.root)) ctx.stdout('The roadmap merge driver stays registered (merge.handoff-roadmap in the local git config): merges of the roadmap need it.\n');
    return;
  }
  if (action === 'status') {
    const hd = await hooksDir(ctx.root);
    const cli = currentCli();
    const hooks = await hookStatus(hd, hd.shared ? null : cli);
    const roadmap = ctx.config.roadmap;
    const driver = { configured: await driverConfigured(ctx.root), attributes: await hasAttributes(ctx.root, roadmap) };
    const managers = await otherManagers(ctx.root);
    if (args.values.json) {
      printJson(ctx, { dir: ctx.rel(hd.dir), manager: hd.manager ?? managers[0] ?? null, hooks: hooks.map((h) => ({ ...h, file: ctx.rel(h.file) })), mergeDriver: driver });
      return;
    }
    for (const h of hooks) {
      const state = !h.installed ? 'not installed' : h.current ? 'installed' : "installed, but written by another handoff install (run 'handoff hooks install' to update)";
      ctx.stdout(`${h.hook}: ${state}${h.chained ? ' (runs your hook after it)' : ''} (${ctx.rel(h.file)})\n`);
    }
    ctx.stdout(`merge driver: ${driver.configured ? 'registered' : 'not registered'} in the git config; ${attributes(roadmap).file} ${driver.attributes ? 'routes' : 'does not route'} ${roadmap} to it\n`);
    for (const m of managers) ctx.stdout(`note: ${MANAGER_NOTES[m]}\n`);
    return;
  }
  throw new UsageError(`'handoff hooks' needs one of install, uninstall, status; got '${action ?? ''}'`);
}
