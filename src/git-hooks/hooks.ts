// `handoff hooks install | uninstall | status`.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { UsageError } from '../core/errors.js';
import {
  attributes,
  recordedCli,
  driverConfigured,
  hasAttributes,
  hooksDir,
  hookStatus,
  otherManagers,
  uninstallHooks,
} from './hook-files.js';
import { printJson } from '../command/output.js';
import { install, MANAGER_NOTES, SAID } from './install.js';

export async function run(ctx: Context, args: ArgsOf<'hooks'>): Promise<Outcome> {
  const action = args.positionals[0];
  if (action === 'install') {
    await install(ctx);
    return;
  }
  if (action === 'uninstall') {
    const hd = await hooksDir(await ctx.git());
    for (const r of await uninstallHooks(hd)) ctx.stdout(`${r.hook}: ${SAID[r.state]} (${ctx.rel(r.file)})\n`);
    // The merge driver is not a hook: .gitattributes routes the roadmap to it, and without it merges conflict.
    if (await driverConfigured(await ctx.git()))
      ctx.stdout(
        'The roadmap merge driver stays registered (merge.handoff-roadmap in the local git config): merges of the roadmap need it.\n',
      );
    return;
  }
  if (action === 'status') {
    const hd = await hooksDir(await ctx.git());
    const cli = recordedCli();
    const hooks = await hookStatus(hd, hd.shared ? null : cli);
    const roadmap = ctx.config.roadmap;
    const driver = {
      configured: await driverConfigured(await ctx.git()),
      attributes: await hasAttributes(ctx.root, roadmap),
    };
    const managers = await otherManagers(ctx.root);
    if (args.values.json) {
      printJson(ctx, {
        dir: ctx.rel(hd.dir),
        manager: hd.manager ?? managers[0] ?? null,
        hooks: hooks.map((h) => ({ ...h, file: ctx.rel(h.file) })),
        mergeDriver: driver,
      });
      return;
    }
    for (const h of hooks) {
      const state = !h.installed
        ? 'not installed'
        : h.current
          ? 'installed'
          : "installed, but written by another handoff install (run 'handoff hooks install' to update)";
      ctx.stdout(`${h.hook}: ${state}${h.chained ? ' (runs your hook after it)' : ''} (${ctx.rel(h.file)})\n`);
    }
    ctx.stdout(
      `merge driver: ${driver.configured ? 'registered in this clone' : "not registered in this clone (run 'handoff init')"}; ${attributes(roadmap).file} ${driver.attributes ? 'marks' : 'does not mark'} ${roadmap} merge=union, so a clone without the driver merges it without conflicts\n`,
    );
    for (const m of managers) ctx.stdout(`note: ${MANAGER_NOTES[m]}\n`);
    return;
  }
  throw new UsageError(`'handoff hooks' needs one of install, uninstall, status; got '${action ?? ''}'`);
}
