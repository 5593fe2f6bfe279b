// Paths a handoff file claims: they come from files anyone can commit, so a path that
// leaves the repository (absolute, a drive letter, a '..' segment) is refused before any
// command looks at the file system with it. Other odd names (spaces, newlines, non-ASCII)
// are legal in git and are kept.

/** Why `p` is not a repository-relative path, or undefined when it is one. */
export function repoPathProblem(p: string): string | undefined {
  if (p.includes('\0')) return 'contains a NUL byte';
  if (p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p))
    return 'is absolute; expected a path relative to the repository root';
  if (p.split(/[\\/]/).includes('..')) return "leaves the repository with '..'; expected a path inside it";
  return undefined;
}
