import { defineConfig } from 'vitest/config';

// `npm run test:agents`: the real agents' CLIs against a scripted model server. Opt-in
// (it installs about 500 MB of agents), never part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/agents/**/*.agents.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
