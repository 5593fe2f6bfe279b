#!/usr/bin/env node
// Launcher: cache compiled code between runs (git hooks start this program on every
// commit), then hand over to the CLI. Nothing else belongs here.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli/cli.js');
await main(process.argv.slice(2));
