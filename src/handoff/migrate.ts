// `handoff migrate`: moves handoffs of the first layout (`.handoff/handoffs/<id>.md`) into
// their dated folders (`handoffs/YYYY-MM/DD/<id>.md`, store/tree.ts says why). Ids, parent
// links and the merge driver do not depend on where a file is, so nothing inside a file
// changes: git shows each move as a rename in review, and a branch that still edits a
// file where it was merges into the moved file (git follows renames).
import { renameSync } from 'node:fs';
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { isId } from '../store/id.js';
import { handoffsDir } from '../store/store.js';
import { datedDir } from '../store/writes.js';
import { listItemFiles } from '../store/reader.js';
import { exists } from '../store/fs.js';
import { withWriterLock } from '../store/writer-lock.js';
import { afterWrite } from '../git-hooks/validated.js';
import { plural } from '../command/output.js';

export async function run(ctx: Context, _args: ArgsOf<'migrate'>): Promise<Outcome> {
  const { moved, left } = await withWriterLock(ctx, 'migrate', async () => {
    const moved: string[] = [];
    const left: string[] = [];
    for (const { name, refused } of listItemFiles(handoffsDir(ctx))) {
      const id = name.slice(0, -'.md'.length);
      const from = path.join(handoffsDir(ctx), name);
      if (refused || !isId(id)) {
        left.push(`${ctx.rel(from)} (${refused ?? 'its name is not an id'})`);
        continue;
      }
      const to = path.join(await datedDir(ctx, id), name);
      if (await exists(to)) {
        left.push(`${ctx.rel(from)} (${ctx.rel(to)} exists already)`);
        continue;
      }
      renameSync(from, to);
      moved.push(ctx.rel(to));
    }
    return { moved, left };
  });
  for (const l of left) ctx.stderr(`handoff: warning: left ${l}`);
  if (moved.length === 0) {
    ctx.stdout('Every handoff is in its dated folder already; nothing moved.\n');
    return left.length > 0 ? 'failure' : undefined;
  }
  await afterWrite(ctx);
  ctx.stdout(
    `Moved ${plural(moved.length, 'handoff')} into dated folders under ${ctx.rel(handoffsDir(ctx))}/ (YYYY-MM/DD/<id>.md); commit the moves: git add -A ${ctx.rel(ctx.dir)}\n`,
  );
  return left.length > 0 ? 'failure' : undefined;
}
