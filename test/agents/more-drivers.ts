// The agents added beside the first five: pi's new package (1.5, which gates project
// extensions behind trust), GitHub Copilot CLI, Cline, Kilo and Qwen Code, each with its
// current release pinned. All speak chat completions to the scripted model. pi 1.5 and
// Qwen Code need Node 22 or later (HANDOFF_AGENTS_NODE).
import path from 'node:path';
import { newest, offline, write, type Driver } from './drivers.js';

const chatProvider = (url: string, window: number) => ({
  baseUrl: `${url}/v1`,
  api: 'openai-completions',
  apiKey: 'x',
  compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
  models: [{ id: 'mock-model', contextWindow: window, maxTokens: 1000 }],
});

/** pi 1.5 compacts past window - reserveTokens, and only when keepRecentTokens leaves something to summarise. */
export const PI1_WINDOW = 2400;

const xdg = (home: string) => ({
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_DATA_HOME: path.join(home, '.local/share'),
  XDG_CACHE_HOME: path.join(home, '.cache'),
  XDG_STATE_HOME: path.join(home, '.local/state'),
});

export const MORE_DRIVERS: Driver[] = [
  {
    agent: 'pi',
    id: 'pi1',
    title: 'pi',
    pkg: '@earendil-works/pi-coding-agent',
    version: '1.5.2',
    bin: 'pi',
    entry: 'node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js',
    node22: true,
    // Its own workspace packages are not all on every registry; the CLI is one bundle that needs jiti for .ts extensions.
    pack: ['jiti@2.7.0'],
    setup: (home, repo, url) => {
      write(
        path.join(home, '.pi/agent/models.json'),
        JSON.stringify({ providers: { mock: chatProvider(url, PI1_WINDOW) } }, null, 2),
      );
      write(
        path.join(home, '.pi/agent/settings.json'),
        JSON.stringify({ compaction: { reserveTokens: 1000, keepRecentTokens: 10 } }, null, 2),
      );
      // The user's own decision, as /trust saves it: without it pi -p skips .pi/extensions/ silently.
      write(path.join(home, '.pi/agent/trust.json'), JSON.stringify({ [repo]: true }, null, 2));
      return { ...offline, PI_OFFLINE: '1' };
    },
    argv: (prompt, { resume }) => [
      '-p',
      '--provider',
      'mock',
      '--model',
      'mock-model',
      ...(resume ? ['--session', resume] : []),
      prompt,
    ],
    transcript: (home) => newest(path.join(home, '.pi/agent/sessions'), /\.jsonl$/),
  },
  {
    agent: 'copilot',
    title: 'Copilot CLI',
    pkg: '@github/copilot',
    version: '1.0.102',
    bin: 'copilot',
    setup: (home, _repo, url) => ({
      ...offline,
      COPILOT_HOME: path.join(home, '.copilot'),
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_API_KEY: 'x',
      COPILOT_MODEL: 'mock-model',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '30000',
      // Trusts the working folder, so its hooks run; --trust-folder is refused with --resume.
      COPILOT_ALLOW_ALL: 'true',
    }),
    argv: (prompt, { resume }) => [
      '-p',
      prompt,
      '--allow-all',
      '--no-auto-update',
      ...(resume ? [`--resume=${resume}`] : []),
    ],
    transcript: (home) => newest(path.join(home, '.copilot/session-state'), /^events\.jsonl$/),
  },
  {
    agent: 'cline',
    title: 'Cline',
    pkg: 'cline',
    version: '3.0.65',
    bin: 'cline',
    setup: (home, _repo, url) => {
      const settings = { provider: 'openai-compatible', apiKey: 'x', model: 'mock-model', baseUrl: `${url}/v1` };
      write(
        path.join(home, '.cline/data/settings/providers.json'),
        JSON.stringify(
          {
            version: 1,
            lastUsedProvider: 'openai-compatible',
            modes: {},
            // What `cline auth -p openai-compatible ...` writes; without updatedAt the entry is ignored.
            providers: {
              'openai-compatible': { settings, updatedAt: '2026-11-24T00:00:00.000Z', tokenSource: 'manual' },
            },
          },
          null,
          2,
        ),
      );
      return { ...offline, ...xdg(home) };
    },
    argv: (prompt) => ['--json', prompt],
    transcript: (home) => newest(path.join(home, '.cline/data/sessions'), /\.messages\.json$/),
  },
  {
    agent: 'kilo',
    title: 'Kilo',
    pkg: '@kilocode/cli',
    version: '7.7.7',
    bin: 'kilo',
    // The newest plugin SDK on the registry reachable here; Kilo installs it before loading a project plugin.
    extras: ['@kilocode/plugin@7.3.1'],
    setup: (home, _repo, url) => {
      const config = {
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'mock',
            options: { baseURL: `${url}/v1`, apiKey: 'x' },
            models: { 'mock-model': { name: 'mock-model', limit: { context: 200000, output: 8000 }, tool_call: true } },
          },
        },
        model: 'mock/mock-model',
        small_model: 'mock/mock-model',
        permission: { edit: 'allow', bash: 'allow', external_directory: 'allow' },
        autoupdate: false,
        share: 'disabled',
      };
      write(path.join(home, '.config/kilo/kilo.json'), JSON.stringify(config, null, 2));
      return {
        ...offline,
        ...xdg(home),
        KILO_DISABLE_AUTOUPDATE: '1',
        KILO_DISABLE_MODELS_FETCH: '1',
        KILO_DISABLE_DEFAULT_PLUGINS: '1',
        KILO_DISABLE_SHARE: '1',
        KILO_DISABLE_SESSION_INGEST: '1',
        KILO_TELEMETRY_LEVEL: 'off',
        KILO_DISABLE_LSP_DOWNLOAD: '1',
        KILO_DISABLE_CODEBASE_INDEXING: '1',
      };
    },
    argv: (prompt, { resume, command }) => [
      'run',
      ...(resume ? ['--session', resume] : []),
      ...(command ? ['--command', command] : []),
      prompt,
    ],
    transcript: (home) => newest(path.join(home, '.local/share/kilo'), /^kilo\.db$/),
  },
  {
    agent: 'qwen',
    title: 'Qwen Code',
    pkg: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    node22: true,
    setup: (home, _repo, url) => {
      write(
        path.join(home, '.qwen/settings.json'),
        JSON.stringify(
          {
            security: { auth: { selectedType: 'openai' } },
            privacy: { usageStatisticsEnabled: false },
            telemetry: { enabled: false },
            general: { disableAutoUpdate: true, disableUpdateNag: true },
            model: { generationConfig: { contextWindowSize: 50000 } },
          },
          null,
          2,
        ),
      );
      return { ...offline, OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'x', OPENAI_MODEL: 'mock-model' };
    },
    argv: (prompt, { resume }) => ['-p', prompt, '--yolo', ...(resume ? ['--resume', resume] : [])],
    transcript: (home) => newest(path.join(home, '.qwen/projects'), /\.jsonl$/),
  },
];
