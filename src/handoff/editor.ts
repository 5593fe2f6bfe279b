// The review step: the same editor `git commit` would open (git var GIT_EDITOR follows
// GIT_EDITOR, core.editor, VISUAL, EDITOR), started the way git starts it, through sh,
// so editor settings with arguments ("code --wait") work.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';

/** In the git directory, beside git's own COMMIT_EDITMSG. */
const KEPT_EDIT = 'HANDOFF_EDITMSG.md';

export async function editText(editor: string, text: string, name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'handoff-'));
  const file = path.join(dir, name);
  try {
    await fs.writeFile(file, text, 'utf8');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      const child = spawn('sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve([code, signal]));
    });
    // A killed editor has no exit status, only the signal that stopped it.
    if (signal) throw new HandoffError(`the editor '${editor}' was killed by ${signal}; nothing written`);
    if (code !== 0) throw new HandoffError(`the editor '${editor}' exited with status ${code}; nothing written`);
    return await fs.readFile(file, 'utf8');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Text typed in the editor that cannot be saved is kept in the git directory, as git keeps
 * COMMIT_EDITMSG, so nothing the user typed is lost: the error it returns, one line, says
 * what was wrong and where the text is, to fix it there and try again.
 */
export async function keepEdit(ctx: Context, text: string, error: unknown): Promise<unknown> {
  const [file = ''] = await (await ctx.git()).gitPaths([KEPT_EDIT]);
  await fs.writeFile(file, text, 'utf8');
  const where = `your text is kept in ${ctx.rel(file)}`;
  if (!(error instanceof HandoffError)) {
    ctx.stderr(`handoff: ${where}`);
    return error;
  }
  // Only the first line reaches the user (core/errors.ts report), and "nothing written" is said once, at the end.
  const problem = (error.message.split('\n', 1)[0] ?? '').replace(/[:;,] nothing written$/, '');
  return new HandoffError(`${problem}; nothing written, ${where}`, { cause: error });
}
