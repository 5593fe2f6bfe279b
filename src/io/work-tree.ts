// The .handoff/ tree as it is in the working tree, as repository-relative (path, text)
// pairs for core/tree.ts. Only the item directories are read: that is all the roadmap
// and `check` look at.
import path from 'node:path';
import { HANDOFFS_PREFIX, PINS_PREFIX, type TreeFile } from '../core/tree.js';
import { listMarkdown, readText } from './fs.js';

export async function readWorkTree(root: string): Promise<TreeFile[]> {
  const lists = await Promise.all(
    [HANDOFFS_PREFIX, PINS_PREFIX].map(async (prefix) => {
      const names = await listMarkdown(path.join(root, prefix));
      return Promise.all(names.map(async (name) => ({ path: `${prefix}${name}`, text: (await readText(path.join(root, prefix, name))) ?? '' })));
    }),
  );
  return lists.flat();
}
