// Agent configuration files we edit outside .handoff/ (settings.json, AGENTS.md, ...).
import { chmod, rm } from 'node:fs/promises';

/** Removes a file we emptied; one that is already gone is fine. */
export async function deleteFile(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** Cline runs a hook file itself: it must be executable. */
export async function makeExecutable(file: string): Promise<void> {
  await chmod(file, 0o755);
}
