// A pin's front-matter as data and the check a parsed one passes (validatePin), pure and
// free of the YAML library, so that a front-matter read without it (plain-front-matter.ts)
// is checked by the same rules.
import { FileFormatError } from '../core/errors.js';
import { isId } from './id.js';

export interface PinMeta {
  id: string;
  created: string;
  author: string;
  status: 'active' | 'retired';
  scope?: string[];
  supersedes?: string;
  retired?: string;
  reason?: string;
}

export function validatePin(data: Record<string, unknown>, file: string): PinMeta {
  const fail = (problem: string) => {
    throw new FileFormatError(file, problem);
  };
  if (!isId(data.id)) fail(`front-matter 'id' must be a 26-character pin id; found ${JSON.stringify(data.id)}`);
  if (typeof data.created !== 'string') fail(`front-matter 'created' must be an ISO time in quotes`);
  const status = data.status ?? 'active';
  if (status !== 'active' && status !== 'retired')
    fail(`front-matter 'status' must be active or retired; found ${JSON.stringify(status)}`);
  const scope = data.scope;
  if (scope !== undefined && scope !== null && !(Array.isArray(scope) && scope.every((s) => typeof s === 'string'))) {
    fail(`front-matter 'scope' must be a list of path globs, e.g. scope: ["src/auth/**"]`);
  }
  if (data.supersedes !== undefined && data.supersedes !== null && !isId(data.supersedes)) {
    fail(`front-matter 'supersedes' must be a pin id`);
  }
  return {
    id: data.id as string,
    created: data.created as string,
    author: typeof data.author === 'string' ? data.author : '',
    status: status as PinMeta['status'],
    ...(Array.isArray(scope) && scope.length > 0 ? { scope: scope as string[] } : {}),
    ...(typeof data.supersedes === 'string' ? { supersedes: data.supersedes } : {}),
    ...(typeof data.retired === 'string' ? { retired: data.retired } : {}),
    ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
  };
}
