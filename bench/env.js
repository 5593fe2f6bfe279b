// @ts-check
// The environment the benchmarks run git and the CLI in: no global or system git config, a
// fixed author, no editor, and none of the caller's HANDOFF_ settings.

/** @param {Record<string, string>} [extra] */
export function benchEnv(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    GIT_EDITOR: ':',
    ...extra,
  };
  for (const k of Object.keys(env)) if (k.startsWith('HANDOFF_')) delete env[k];
  return env;
}
