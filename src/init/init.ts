import path from 'node:path';
import type { Context } from '../cli/context.js';
import { createFileAtomic, ensureDir, exists } from '../store/fs.js';
import { handoffsDir, pinsDir } from '../store/store.js';
import { readTemplate } from '../store/templates.js';
import type { Args } from '../cli/spec.js';
import { setUpGit } from './init-git.js';

export async function run(ctx: Context, args?: Args): Promise<number> {
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
  ctx.stdout(
    created.length > 0
      ? `Initialized ${ctx.rel(ctx.dir)}: created ${created.join(', ')}. Next: handoff pin "<constraint>", handoff new "<goal>".\n`
      : `${ctx.rel(ctx.dir)} is already initialized; nothing changed.\n`,
  );
  await setUpGit(ctx, args?.values.hooks === true);
  return 0;
}
