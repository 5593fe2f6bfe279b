// How files are shown to people and agents: grouped by what they are for. In the store
// because two features show them: the draft of `new` and the resume prompt.
import type { FileChange } from './handoff.js';
import { code, thousands } from './markdown.js';

const GROUPS: ReadonlyArray<[string, RegExp]> = [
  ['Tests', /(^|\/)(tests?|__tests__|specs?|e2e|fixtures)\/|[._-](test|spec)\.[^/.]+$|_test\.go$/i],
  ['Documentation', /\.(md|mdx|markdown|rst|adoc|txt)$|(^|\/)docs?\//i],
  [
    'Configuration and build',
    /(^|\/)(package(-lock)?\.json|pnpm-lock\.yaml|yarn\.lock|tsconfig[^/]*\.json|Makefile|Dockerfile|Cargo\.(toml|lock)|go\.(mod|sum)|pyproject\.toml|requirements[^/]*\.txt)$|(^|\/)\.[^/]+$|^\.(github|ci|husky)\/|\.(ya?ml|toml|ini|cfg)$/,
  ],
];

function fileGroup(path: string): string {
  return GROUPS.find(([, pattern]) => pattern.test(path))?.[0] ?? 'Source';
}

function describeFile(f: FileChange): string {
  const parts: string[] = [];
  if (f.files !== undefined && f.state === 'untracked')
    return `- ${code(f.path)} (${thousands(f.files)} ${f.state} ${f.files === 1 ? 'file' : 'files'})`;
  if (f.files !== undefined) {
    const lines = f.insertions !== undefined ? `, +${thousands(f.insertions)} -${thousands(f.deletions ?? 0)}` : '';
    return `- ${code(f.path)} (${thousands(f.files)} files ${f.change}${lines}, ${f.state})`;
  }
  parts.push(f.from !== undefined ? `${f.change} from ${code(f.from)}` : f.change);
  if (f.binary) parts.push('binary');
  else if (f.insertions !== undefined) parts.push(`+${f.insertions} -${f.deletions ?? 0}`);
  parts.push(f.state);
  return `- ${code(f.path)} (${parts.join(', ')})`;
}

/** The file list as Markdown, grouped (Source, Tests, Documentation, Configuration and build). */
export function renderFileGroups(files: readonly FileChange[], heading = '###'): string {
  if (files.length === 0) return '';
  const order = ['Source', 'Tests', 'Documentation', 'Configuration and build'];
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const group = fileGroup(f.path);
    groups.set(group, [...(groups.get(group) ?? []), describeFile(f)]);
  }
  return order
    .filter((g) => groups.has(g))
    .map((g) => `${heading} ${g}\n\n${groups.get(g)!.join('\n')}`)
    .join('\n\n');
}
