// What `handoff init` adds for git: the roadmap's merge driver (.gitattributes and the
// local config), and with --hooks the hooks themselves.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { addAttributes, attributes, configureDriver, recordedCli } from '../git-hooks/hook-files.js';
import { install } from '../git-hooks/install.js';
import { aliasCommand } from '../git-hooks/hook-script.js';

/** `git handoff` in this clone whatever the PATH; a user's own alias of that name is left alone. */
async function configureAlias(ctx: Context): Promise<'added' | 'updated' | 'kept' | null> {
  const git = await ctx.git();
  const current = await git.config('alias.handoff', true);
  const want = aliasCommand(recordedCli());
  if (current === want) return null;
  if (current !== null && !current.includes('handoff_path')) return 'kept';
  await git.setLocalConfig('alias.handoff', want);
  return current === null ? 'added' : 'updated';
}

/** Handoff and pin files go through the same driver, which merges their front-matter field by field (handoffs in either layout). */
const ITEM_LINES = [
  '/handoffs/*.md merge=handoff-roadmap',
  '/handoffs/*/*/*.md merge=handoff-roadmap',
  '/pins/*.md merge=handoff-roadmap',
];

async function addItemAttributes(ctx: Context): Promise<boolean> {
  const file = path.join(ctx.dir, '.gitattributes');
  const text = (await readText(file)) ?? '';
  const lines = text.split(/\r?\n/);
  const missing = ITEM_LINES.filter((l) => !lines.includes(l));
  if (missing.length === 0) return false;
  await replaceFileAtomic(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  return true;
}

/** Sets git up for .handoff/; answers whether anything changed (each change is said on its own line). */
export async function setUpGit(ctx: Context, hooks: boolean): Promise<boolean> {
  const roadmap = ctx.config.roadmap;
  let changed = false;
  const say = (line: string) => {
    ctx.stdout(`${line}\n`);
    changed = true;
  };
  const added = await addAttributes(ctx.root, roadmap);
  if (added)
    say(
      `Added '${attributes(roadmap).line}' to ${added}: the roadmap never conflicts, even in a clone that has not run handoff init.`,
    );
  if (await addItemAttributes(ctx))
    say(
      `Added the handoff and pin files to ${ctx.rel(path.join(ctx.dir, '.gitattributes'))}: concurrent done, supersede and unpin merge field by field.`,
    );
  if (hooks) {
    await install(ctx);
    changed = true;
  } else if (await configureDriver(await ctx.git(), recordedCli(), roadmap))
    say(
      'Registered the merge driver in this clone (merge.handoff-roadmap in the local git config, the roadmap routed to it in .git/info/attributes).',
    );
  const alias = await configureAlias(ctx);
  if (alias === 'added' || alias === 'updated')
    say(
      `${alias === 'added' ? 'Added' : 'Updated'} the alias handoff in the local git config: 'git handoff' works here without node_modules/.bin on PATH ('git handoff -h' for help).`,
    );
  return changed;
}
