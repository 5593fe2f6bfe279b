// Agent configuration files we edit outside .handoff/ (settings.json, AGENTS.md, ...).
import { rm } from 'node:fs/promises';

/** Removes a file we emptied; one that is already gone is fine. */
export async function deleteFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
