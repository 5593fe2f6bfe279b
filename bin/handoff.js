#!/usr/bin/env node
// Launcher: cache compiled code between runs (git hooks start this program on every
// commit), then hand over to the CLI. Nothing else belongs here.
// Through getBuiltinModule, not `import`: an import of node:module builds its ES module
// facade, reading every export, which this one line does not need.
process.getBuiltinModule('node:module').enableCompileCache?.();
const { main } = await import('../dist/cli/cli.js');
await main(process.argv.slice(2));
