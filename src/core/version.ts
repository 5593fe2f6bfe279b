// The package's version, read from package.json beside dist/ (for --version and help).

// Taken, not imported: see store/fs.ts.
const { readFileSync } = process.getBuiltinModule('node:fs');

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
