// Templates ship beside dist/ in the package's templates/ folder.
import { readFile } from 'node:fs/promises';

export function readTemplate(name: string): Promise<string> {
  return readFile(new URL(`../../templates/${name}`, import.meta.url), 'utf8');
}
