// The review step: the same editor `git commit` would open (git var GIT_EDITOR follows
// GIT_EDITOR, core.editor, VISUAL, EDITOR), started the way git starts it, through sh,
// so editor settings with arguments ("code --wait") work.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HandoffError } from '../core/errors.js';

export async function editText(editor: string, text: string, name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'handoff-'));
  const file = path.join(dir, name);
  try {
    await fs.writeFile(file, text, 'utf8');
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
    if (status !== 0) throw new HandoffError(`the editor '${editor}' exited with status ${status}; nothing written`);
    return await fs.readFile(file, 'utf8');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
