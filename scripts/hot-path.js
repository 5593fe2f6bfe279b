// The modules of the paths that run at every agent session start and every commit:
// `handoff resume`, the agents' session-start hooks and the git hooks, with the context
// and git they use. Imported here for their side effects only (they have none at load):
// scripts/bundle.js makes every module of src/ import this file first, so every chunk
// shares these modules and esbuild puts them, and everything they import, in one chunk.
// Otherwise esbuild makes a chunk for each set of commands that share a module: a
// session start loaded 29 files, and node resolves, reads and links each ES module.
import '../src/command/spec.ts';
import '../src/cli/commands.ts';
import '../src/command/context.ts';
import '../src/git/git.ts';
import '../src/resume/resume.ts';
import '../src/resume/build.ts';
import '../src/agents/agent-hook.ts';
import '../src/git-hooks/git-hook.ts';
