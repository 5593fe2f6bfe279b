import path from 'node:path';
import type { Context } from '../command/context.js';
import { createFileAtomic, ensureDir, exists } from '../store/fs.js';
import { handoffsDir, pinsDir } from '../store/store.js';
import { readTemplate } from '../store/templates.js';
import type { ArgsOf, Outcome } from '../command/spec.js';
import { setUpGit } from './init-git.js';

export async function run(ctx: Context, args: ArgsOf<'init'>): Promise<Outcome> {
  const created: string[] = [];
  for (const dir of [ctx.dir, handoffsDir(ctx), pinsDir(ctx)]) {
    if (!(await exists(dir))) {
      await ensureDir(dir);
      created.push(`${ctx.rel(dir)}${path.sep}`);
    }
  }
  if (!(await exists(ctx.configFile))) {
    await createFileAtomic(ctx.configFile, await readTemplate('config.yml'));
    created.push(ctx.rel(ctx.configFile));
  }
  if (created.length > 0)
    ctx.stdout(
      `Initialized ${ctx.rel(ctx.dir)}: created ${created.join(', ')}. Next: handoff pin "<constraint>", handoff new "<goal>".\n`,
    );
  const changed = await setUpGit(ctx, args?.values.hooks === true);
  if (created.length === 0)
    ctx.stdout(
      `${ctx.rel(ctx.dir)} is already initialized; ${changed ? 'git is set up as above' : 'nothing changed'}.\n`,
    );
}
