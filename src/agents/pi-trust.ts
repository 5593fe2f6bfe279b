// Whether pi (1.5 and later) trusts this project, and so loads our extension: pi skips a
// project's .pi/extensions/ without a word unless ~/.pi/agent/trust.json holds a decision
// for the project or a folder above it (the nearest one wins), or its settings.json says
// `"defaultProjectTrust": "always"`. Read only, to tell the user; never written: trusting
// code is the user's decision.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

async function json(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** true: trusted; false: distrusted, or no decision (pi -p then skips the extensions). */
export async function piTrusts(root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  const dir = env.PI_CODING_AGENT_DIR ?? path.join(home, '.pi', 'agent');
  const trust = (await json(path.join(dir, 'trust.json'))) ?? {};
  for (let d = path.resolve(root); ; d = path.dirname(d)) {
    const decision = trust[d];
    if (typeof decision === 'boolean') return decision;
    if (path.dirname(d) === d) break;
  }
  return (await json(path.join(dir, 'settings.json')))?.defaultProjectTrust === 'always';
}
