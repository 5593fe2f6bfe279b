// Our rules, in gitleaks' shape (gitleaks-rules.ts), for secrets its default set misses in
// the text a handoff carries: gitleaks scans files and leaves some shapes to their path, to
// a provider's name nearby, or to a generic rule whose entropy floor (3.5 bits, and a digit)
// a sixteen-character password often does not reach. Each pattern is bounded like the
// generated ones (test/reliability/secrets-linear.test.ts runs them all on adversarial input).
import type { GitleaksRule } from './gitleaks-rules.js';

/** What may stand before a key's name: its start, a separator, or a camelCase hump. */
const NAME_START = String.raw`(?:\b|(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z]))`;
/** The rest of a compound name, only after a separator: `DB_PASSWORD_FILE`, not `passed`. */
const NAME_REST = String.raw`(?:[_.-][\w.-]{0,30})?["']?`;
/** `=`, `:`, `=>`, `:=`, `>` (an XML element), or spaces alone (.netrc, a flag's value). */
const ASSIGN = String.raw`(?:[ \t]{0,3}(?:=>|:=|[=:>])[ \t]{0,3}|[ \t]{1,3})["'\x60]?`;
/** A value: no space, quote, bracket or separator a program would put around it, and no
 *  backslash: in a JSON transcript a value ends where an escaped newline (`\\n`) begins. */
const VALUE = String.raw`[^\s'"\x60<>;,(){}\[\]\\]`;
/** The same without spaces alone: `token budget` is prose, `token: budget7f3` is not. */
const ASSIGN_STRICT = String.raw`[ \t]{0,3}(?:=>|:=|[=:>])[ \t]{0,3}["'\x60]?`;
/** Identifiers and prose (`options.password`, `protected`) are names, not values; code
 *  (`this.result?.pass`, `CL100K_TOKEN_REGEX`, `Schema$1`, `!done`, `getToken!`), paths, scopes and
 *  URNs are not secrets either. */
const NOT_A_WORD = {
  regexes: [
    '^[a-zA-Z_.-]+$',
    '^[!?&|@/~\\\\]',
    '[!?:]$',
    '^[A-Za-z_$][\\w$]*(?:\\??\\.[A-Za-z_$][\\w$]*)+\\??\\.?$',
    '^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$',
    '^[A-Za-z_][\\w]*\\$[\\w$]*$',
    '^[a-z][a-z0-9+.-]*:[a-z]',
  ],
};

export const EXTRA_RULES: readonly GitleaksRule[] = [
  {
    // The generic key/value rule for passwords: gitleaks' needs 3.5 bits and a digit.
    id: 'password-assignment',
    // `password hunter22` (.netrc) is an assignment; `pass arrays` is English: a bare `pass`
    // or `pwd` needs a real separator.
    source: `${NAME_START}(?:(?:[pP]ass(?:word|wd|phrase)|PASS(?:WORD|WD|PHRASE))${NAME_REST}${ASSIGN}|(?:[pP]ass|PASS|[pP]wd|PWD)${NAME_REST}${ASSIGN_STRICT})(${VALUE}{6,128})`,
    keywords: ['pass', 'pwd'],
    entropy: 2.8,
    allow: [
      NOT_A_WORD,
      { stopwords: ['password', 'passwd', 'changeme', 'example', 'xxxxxx', 'redacted'] },
      // A test runner's report line (go test, TAP), not an assignment.
      { target: 'line', regexes: ['^\\s*(?:---|===|ok|PASS|FAIL)\\s*(?:PASS|FAIL|RUN|PAUSE|CONT)?:?\\s'] },
    ],
  },
  {
    // The generic key/value rule for keys, secrets and tokens, with a lower floor than
    // gitleaks' but a longer value: a hex key of 32 characters can have under 3.5 bits.
    id: 'secret-assignment',
    source: `${NAME_START}(?:(?:[a-zA-Z]{0,12}[_.-]?)(?:[aA]pi|API|[aA]ccess|ACCESS|[aA]uth|AUTH|[cC]lient|CLIENT|[pP]rivate|PRIVATE|[sS]ession|SESSION|[sS]igning|SIGNING|[eE]ncryption|ENCRYPTION|[mM]aster|MASTER|[aA]dmin|ADMIN|[aA]pp|APP|[aA]ccount|ACCOUNT|[sS]ervice|SERVICE|[dD]elivery|DELIVERY)[_.-]?(?:[kK]ey|KEY|[sS]ecret|SECRET|[tT]oken|TOKEN)|(?:[sS]ecret|SECRET|[tT]oken|TOKEN|[cC]redentials?|CREDENTIALS?|[aA]uth|AUTH)|(?:[a-zA-Z]{1,12}[_.-])(?:[sS]ecret|SECRET|[tT]oken|TOKEN|PAT))${NAME_REST}${ASSIGN_STRICT}(${VALUE}{16,2048})`,
    keywords: ['key', 'secret', 'token', 'credential', 'pat', 'auth'],
    entropy: 3,
    allow: [NOT_A_WORD, { regexes: ['^\\d+$'] }],
  },
  {
    // gitleaks' rule wants the T3BlbkFJ marker that project and service-account keys no
    // longer always carry.
    id: 'openai-api-key',
    source: String.raw`\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,256})(?![A-Za-z0-9_-])`,
    keywords: ['sk-'],
    entropy: 3.5,
    allow: [{ regexes: ['^sk-[a-z]+(?:-[a-z]+)+$'] }],
  },
  {
    id: 'url-password',
    source: String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]{0,20}://[^\s:@/?#]{0,64}:([^\s:@/?#'"\x60]{3,128})@[a-zA-Z0-9.-]`,
    keywords: ['://'],
    allow: [{ stopwords: ['password', 'passwd', 'secret', 'changeme', 'xxxx', '****', '${', '{{', '<', '%s'] }],
  },
  {
    id: 'authorization-header',
    source: String.raw`\b(?:[bB]earer|BEARER|[bB]asic|BASIC|[dD]igest|[tT]oken)[ \t]{1,5}([A-Za-z0-9._~+/-]{8,2048}={0,2})(?![A-Za-z0-9._~+/=-])`,
    keywords: ['bearer', 'basic', 'digest', 'authorization', 'token '],
    entropy: 3,
    allow: [NOT_A_WORD],
  },
  {
    id: 'cookie-header',
    source: String.raw`(?:^|[\s"'])(?:[cC]ookie|COOKIE|[sS]et-[cC]ookie):[ \t]{0,3}([^\s;=]{1,64}=[^\n]{8,2048})`,
    keywords: ['cookie:'],
  },
  {
    id: 'cli-password',
    source: String.raw`(?:\bsshpass[ \t]{1,3}-p[ \t]{0,3}|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?[ \t]-p(?=[^\s-])|\b(?:docker|podman|helm)[ \t]{1,3}(?:registry[ \t]{1,3})?login\b[^\n]{0,200}?[ \t](?:-p|--password)[ \t=]{1,3})['"]?([^\s'"]{3,128})`,
    keywords: ['sshpass', 'mysql', 'mariadb', 'login'],
  },
  {
    id: 'azure-sas-signature',
    source: '[?&]sig=([A-Za-z0-9%+/=]{30,200})',
    keywords: ['sig='],
  },
  {
    // Azure storage and Cosmos DB keys are 64 bytes: 86 base64 characters and `==`.
    id: 'azure-storage-key',
    source: '(?<![A-Za-z0-9+/]|sha512-)([A-Za-z0-9+/]{86}==)',
    keywords: ['=='],
    entropy: 4.5,
  },
  {
    id: 'azure-devops-pat',
    source: String.raw`(?:[aA]zure|AZURE|[dD]ev[oO]ps|DEVOPS|ADO|[aA]do)[\w.-]{0,30}["']?[ \t]{0,3}[=:][ \t]{0,3}["']?([a-z2-7]{52}|[A-Za-z0-9]{84})\b`,
    keywords: ['azure', 'devops', 'ado'],
  },
  {
    id: 'telegram-bot-token',
    source: String.raw`\b(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])`,
    keywords: [':aa'],
  },
  {
    id: 'discord-bot-token',
    source: String.raw`\b([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])`,
    entropy: 4,
  },
  {
    id: 'discord-webhook',
    source: String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/([A-Za-z0-9_-]{60,80})`,
    keywords: ['discord'],
  },
  {
    id: 'google-oauth-token',
    source: String.raw`\b(ya29\.[A-Za-z0-9_-]{30,2048}|1//0[A-Za-z0-9_-]{40,512})`,
    keywords: ['ya29.', '1//0'],
  },
  {
    id: 'docker-hub-token',
    source: String.raw`\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,40})(?![A-Za-z0-9_-])`,
    keywords: ['dckr_'],
  },
  {
    id: 'braintree-access-token',
    source: String.raw`(access_token\$(?:production|sandbox)\$[0-9a-zA-Z]{16}\$[0-9a-f]{32})`,
    keywords: ['access_token$'],
  },
  {
    id: 'base64-app-key',
    source: String.raw`\bbase64:([A-Za-z0-9+/]{40,86}={0,2})`,
    keywords: ['base64:'],
    entropy: 4,
  },
  {
    id: 'putty-private-key',
    source: String.raw`Private-Lines: \d{1,3}\r?\n([A-Za-z0-9+/=\r\n]{16,8192})`,
    keywords: ['private-lines:'],
  },
];
