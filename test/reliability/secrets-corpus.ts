// Realistic-looking, fake credentials. Built by concatenation at run time so that no
// secret scanner mistakes this file for a leak; none of them is valid anywhere.
const r = (alphabet: string, n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + seed * 13) % alphabet.length]).join('');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface Planted {
  kind: string;
  value: string;
  /** Fits in a file name and a one-line commit subject. */
  oneWord: boolean;
}

export const CORPUS: Planted[] = [
  { kind: 'aws-access-key', value: 'AKIA' + r(UPPER, 16, 1), oneWord: true },
  { kind: 'aws-secret-key', value: 'aws_secret_access_key=' + r(ALNUM, 40, 2), oneWord: true },
  { kind: 'github-token', value: 'gh' + 'p_' + r(ALNUM, 36, 3), oneWord: true },
  { kind: 'github-fine-grained', value: 'github' + '_pat_' + r(ALNUM, 22, 4) + '_' + r(ALNUM, 59, 5), oneWord: true },
  { kind: 'gitlab-token', value: 'gl' + 'pat-' + r(ALNUM, 20, 6), oneWord: true },
  {
    kind: 'slack-token',
    value: 'xo' + 'xb-' + '2' + r('0123456789', 11, 7) + '-' + r('0123456789', 13, 8) + '-' + r(ALNUM, 24, 9),
    oneWord: true,
  },
  { kind: 'openai-key', value: 's' + 'k-proj-' + r(ALNUM, 48, 10), oneWord: true },
  { kind: 'anthropic-key', value: 's' + 'k-ant-api03-' + r(ALNUM, 93, 11) + 'AA', oneWord: true },
  { kind: 'stripe-key', value: 's' + 'k_live_' + r(ALNUM, 24, 12), oneWord: true },
  {
    kind: 'jwt',
    value:
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
      '.' +
      'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0' +
      '.' +
      r(ALNUM, 43, 13),
    oneWord: true,
  },
  {
    kind: 'private-key',
    value:
      '-----BEGIN ' +
      'RSA PRIVATE KEY-----\n' +
      r(ALNUM, 64, 14) +
      '\n' +
      r(ALNUM, 64, 15) +
      '\n-----END ' +
      'RSA PRIVATE KEY-----',
    oneWord: false,
  },
  {
    kind: 'password-in-url',
    value: 'postgres://admin:' + r(ALNUM, 14, 16) + '@db.internal.example.com:5432/app',
    oneWord: false,
  },
  { kind: 'dotenv-password', value: 'DATABASE_PASSWORD=' + r(ALNUM, 18, 17), oneWord: true },
];

/** Kinds the first-cut patterns in src/security/redact.ts do not catch yet: expected to leak
 *  until the library-backed redactor lands; their tests are marked it.fails. */
export const FIRST_CUT_GAPS = new Set<string>();

/** The part of a planted value that must never appear (the key material, not its label). */
export function material(p: Planted): string {
  if (p.kind === 'private-key') return p.value.split('\n')[1]!;
  if (p.kind === 'password-in-url') return p.value.split(':')[2]!.split('@')[0]!;
  if (p.value.includes('=')) return p.value.split('=')[1]!;
  return p.value;
}
