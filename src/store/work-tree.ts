// The .handoff/ tree as it is in the working tree, as repository-relative (path, text)
// pairs for tree.ts. Only the item directories are read: that is all the roadmap
// and `check` look at.
//
// Synchronous reads on purpose: for 1,000+ small files, fs.promises pays a FileHandle,
// four thread-pool round trips and their garbage per file (~100 ms and half the GC of
// `handoff roadmap` at 1,200 files); readFileSync reads each in a few microseconds.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HANDOFFS_PREFIX, PINS_PREFIX, SYMLINK_REFUSED, type TreeFile } from './tree.js';

/** The item files of a directory, and whether each is a symbolic link (never followed: it could point outside the repository). */
function names(dir: string): Array<{ name: string; link: boolean }> {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.name.endsWith('.md') && !d.name.startsWith('.'))
      .map((d) => ({ name: d.name, link: d.isSymbolicLink() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function readWorkTree(root: string): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  for (const prefix of [HANDOFFS_PREFIX, PINS_PREFIX]) {
    const dir = path.join(root, prefix);
    for (const { name, link } of names(dir)) {
      if (link) {
        files.push({ path: `${prefix}${name}`, refused: SYMLINK_REFUSED });
        continue;
      }
      try {
        files.push({ path: `${prefix}${name}`, text: readFileSync(path.join(dir, name), 'utf8') });
      } catch (error) {
        // Deleted between the listing and the read: it is simply not there.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return files;
}
