// Taken, not imported: see store/fs.ts.
const { readFileSync } = process.getBuiltinModule('node:fs');
// Templates ship beside dist/ in the package's templates/ folder.

export async function readTemplate(name: string): Promise<string> {
  return readFileSync(new URL(`../../templates/${name}`, import.meta.url), 'utf8');
}
