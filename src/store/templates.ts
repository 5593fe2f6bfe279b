// Templates ship beside dist/ in the package's templates/ folder.
import { readFileSync } from 'node:fs';

export async function readTemplate(name: string): Promise<string> {
  return readFileSync(new URL(`../../templates/${name}`, import.meta.url), 'utf8');
}
