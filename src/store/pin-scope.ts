// Which pins apply: the active ones, and of those the ones whose scope (path globs)
// matches. The only importer of picomatch (loaded only when some active pin has a scope,
// so unscoped repositories never pay for it). Free of the YAML library: the session-start
// paths read pins from the cache and decide here without loading it.
import type { Pin } from './pin.js';

/** Active pins, with the pins they superseded left out. */
export function activePins(pins: readonly Pin[]): Pin[] {
  const superseded = new Set(pins.map((p) => p.meta.supersedes).filter(Boolean));
  return pins.filter((p) => p.meta.status === 'active' && !superseded.has(p.meta.id));
}

/** Unscoped pins always; scoped pins only when a glob matches one of the paths in play. */
export async function pinsInPlay(pins: readonly Pin[], paths: readonly string[]): Promise<Pin[]> {
  if (!pins.some((p) => p.meta.scope)) return [...pins];
  const { default: picomatch } = await import('picomatch');
  return pins.filter((p) => {
    if (!p.meta.scope) return true;
    const match = picomatch(p.meta.scope.flatMap(expand), { dot: true });
    return paths.some((path) => match(path));
  });
}

/** A scope without glob characters is a path: the file itself, or everything under the folder (`db` is `db` and `db/**`). */
function expand(glob: string): string[] {
  if (/[*?[\]{}()!]/.test(glob)) return [glob];
  const bare = glob.replace(/\/+$/, '');
  return [bare, `${bare}/**`];
}

/** A glob a user typed: repository-relative, no parent escapes. */
export function checkScope(glob: string): string | undefined {
  if (glob.trim() === '') return 'a scope glob is empty';
  if (glob.startsWith('/') || /(^|\/)\.\.(\/|$)/.test(glob))
    return `scope '${glob}' must be relative to the repository root, without '..'`;
  return undefined;
}
