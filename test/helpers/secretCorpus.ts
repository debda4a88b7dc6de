/**
 * Made-up secrets of the kinds terminals print, in their real shapes (with the checksum where the
 * format has one: GitHub's and npm's CRC32 suffix), generated from a fixed seed; and text that
 * looks like them but is no secret. Shared by the unit and integration tests of redaction.
 */
import { seededRandom } from './random';

/** A secret of the corpus: `value` is the secret itself, `line` how a command prints it, `probe` a piece of it no result may hold. */
export interface CorpusSecret {
  kind: string;
  /** The secret as a program prints it, on one line or several (a private key block). */
  line: string;
  /** The secret value (no name, no quotes). */
  value: string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic generator ({@link seededRandom}): the corpus is the same on every run. */
function generator(seed: number): (alphabet: string, length: number) => string {
  const next = seededRandom(seed);
  return (alphabet, length) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

/** Base62 of `n`, left-padded with `0` to `width`. */
function base62(n: number, width: number): string {
  let s = '';
  for (let v = n >>> 0; v > 0; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return s.padStart(width, '0');
}

/** CRC-32 (IEEE 802.3, as zlib computes it) of `text`'s UTF-8 bytes. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A token of GitHub's (and npm's) format: prefix, 30 random base62 characters, their CRC32 in 6 base62 characters. */
function checksummed(prefix: string, random: string): string {
  return `${prefix}${random}${base62(crc32(random), 6)}`;
}

const r = generator(0x5ec2e7);
const b62 = (n: number) => r(BASE62, n);
const b64 = (n: number) => r(`${BASE62}+/`, n);
const url64 = (n: number) => r(`${BASE62}-_`, n);
const hex = (n: number) => r('0123456789abcdef', n);
const upper = (n: number) => r('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', n);

function pem(kind: string, lines: number, width = 64): { line: string; value: string } {
  const body = Array.from({ length: lines }, (_, i) => (i === 0 ? 'MIIEow' + b64(width - 6) : b64(width))).join('\n');
  return { line: `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`, value: body };
}

const jwt = () => {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: b62(10), name: 'Made Up', iat: 1700000000 })}.${url64(43)}`;
};

const gcpKey = pem('', 4);
const gcpKeyId = hex(40);
const rsa = pem('RSA ', 6);
const openssh = pem('OPENSSH ', 5, 70);
const ec = pem('EC ', 3);

function secret(kind: string, value: string, line = value): CorpusSecret {
  return { kind, value, line };
}

/** The corpus of secrets (at least 40), each with the line a command prints it in. */
export const SECRETS: readonly CorpusSecret[] = (() => {
  const ghp = checksummed('ghp_', b62(30));
  const npm = checksummed('npm_', b62(30));
  const awsSecret = b64(40);
  const azureKey = `${b64(86)}==`;
  const list: CorpusSecret[] = [
    secret('GitHub classic token', ghp),
    secret('GitHub classic token', checksummed('ghp_', b62(30))),
    secret('GitHub OAuth token', checksummed('gho_', b62(30))),
    secret('GitHub user-to-server token', checksummed('ghu_', b62(30))),
    secret('GitHub server-to-server token', checksummed('ghs_', b62(30))),
    secret('GitHub refresh token', checksummed('ghr_', b62(30))),
    secret('GitHub fine-grained token', `github_pat_${b62(22)}_${b62(59)}`),
    secret('GitLab token', `glpat-${url64(20)}`),
    secret('npm token', npm),
    secret('npm token in .npmrc', npm.replace(/^npm_/, 'npm_'), `//registry.npmjs.org/:_authToken=${npm}`),
    secret('PyPI token', `pypi-AgEIcHlwaS5vcmc${url64(120)}`),
    secret('AWS access key ID', `AKIA${upper(16)}`),
    secret('AWS secret access key', awsSecret, `AWS_SECRET_ACCESS_KEY=${awsSecret}`),
    (() => {
      const v = b64(40);
      return secret('AWS secret access key in JSON', v, `{"AccessKeyId": "ASIA${upper(16)}", "SecretAccessKey": "${v}"}`);
    })(),
    secret(
      'GCP service account key id',
      gcpKeyId,
      `{"type": "service_account", "project_id": "made-up-project", "private_key_id": "${gcpKeyId}", "client_email": "bot@made-up-project.iam.gserviceaccount.com"}`,
    ),
    secret(
      'GCP service account private key',
      gcpKey.value.split('\n')[1]!,
      `{"type": "service_account", "private_key": "${gcpKey.line.replace(/\n/g, '\\n')}\\n"}`,
    ),
    secret('GCP API key', `AIza${url64(35)}`),
    secret(
      'Azure storage key',
      azureKey,
      `DefaultEndpointsProtocol=https;AccountName=madeup;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
    ),
    (() => {
      const v = `${r('abcdefghijklmnopqrstuvwxyz', 3)}8Q~${url64(34).replace(/-/g, '.')}`;
      return secret('Azure client secret', v, `AZURE_CLIENT_SECRET=${v}`);
    })(),
    secret('Slack bot token', `xoxb-${r('0123456789', 12)}-${r('0123456789', 13)}-${b62(24)}`),
    secret('Slack user token', `xoxp-${r('0123456789', 12)}-${r('0123456789', 12)}-${r('0123456789', 13)}-${hex(32)}`),
    (() => {
      const v = b62(24);
      return secret('Slack webhook', v, `https://hooks.slack.com/services/T${upper(8)}/B${upper(8)}/${v}`);
    })(),
    secret('Stripe live key', `sk_live_${b62(24)}`),
    secret('Stripe restricted key', `rk_live_${b62(99)}`),
    secret('Stripe test key', `sk_test_${b62(34)}`),
    secret('OpenAI project key', `sk-proj-${url64(74)}T3BlbkFJ${url64(74)}`),
    secret('OpenAI legacy key', `sk-${b62(20)}T3BlbkFJ${b62(20)}`),
    secret('Anthropic key', `sk-ant-api03-${url64(93)}AA`),
    secret('RSA private key', rsa.value.split('\n')[2]!, rsa.line),
    secret('OpenSSH private key', openssh.value.split('\n')[1]!, openssh.line),
    secret('EC private key', ec.value.split('\n')[1]!, ec.line),
    secret('JWT', jwt()),
    (() => {
      const v = `Pw${b62(14)}`;
      return secret('password in an https URL', v, `https://deploy:${v}@git.example.com/org/repo.git`);
    })(),
    (() => {
      const v = `pg${b62(18)}`;
      return secret('password in a database URL', v, `postgres://app:${v}@db.internal:5432/app`);
    })(),
    (() => {
      const v = b62(32);
      return secret('GITHUB_TOKEN value', v, `GITHUB_TOKEN=${v}`);
    })(),
    (() => {
      const v = b62(28);
      return secret('exported secret', v, `export API_SECRET="${v}"`);
    })(),
    (() => {
      const v = `hunter2-${b62(10)}`;
      return secret('PASSWORD value', v, `PASSWORD=${v}`);
    })(),
    (() => {
      const v = `${b62(12)} with space`;
      return secret('quoted DB password', v, `DB_PASSWORD='${v}'`);
    })(),
    (() => {
      const v = hex(32);
      return secret('declared signing secret', v, `declare -x SLACK_SIGNING_SECRET="${v}"`);
    })(),
    (() => {
      const v = b62(40);
      return secret('client_secret in JSON', v, `{"client_id": "made-up-client", "client_secret": "${v}"}`);
    })(),
    (() => {
      const v = url64(48);
      return secret('access_token in JSON', v, `{"access_token": "${v}", "token_type": "bearer", "expires_in": 3600}`);
    })(),
    secret('SendGrid key', `SG.${url64(22)}.${url64(43)}`),
    secret('Vault token', `hvs.${url64(95)}`),
    secret('Hugging Face token', `hf_${r('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`),
    secret('Docker token', `dckr_pat_${url64(27)}`),
    secret('Shopify token', `shpat_${hex(32)}`),
    secret('Databricks token', `dapi${hex(32)}`),
    secret('Linear key', `lin_api_${b62(40)}`),
    secret('Groq key', `gsk_${b62(52)}`),
    secret('Anthropic admin key', `sk-ant-admin01-${url64(93)}AA`),
  ];
  return list;
})();

/** A piece of the secret no text an agent reads may hold: 12 characters from its middle (of one line). */
export function probeOf(s: CorpusSecret): string {
  const line = s.value.split('\n').reduce((a, b) => (b.length > a.length ? b : a));
  const mid = Math.max(0, Math.floor(line.length / 2) - 6);
  return line.slice(mid, mid + 12);
}

/** Text that looks like secrets and is none: none of it may be redacted. */
export const NOT_SECRETS: readonly string[] = [
  // git SHAs, full and short, as git log and git show print them
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 refs/heads/main',
  '4b825dc Merge pull request #42 from made-up/branch',
  // UUIDs
  '123e4567-e89b-12d3-a456-426614174000',
  'request id: 9f1c2b7e-3d4a-4c5b-8e6f-7a8b9c0d1e2f',
  // base64 of ordinary text
  Buffer.from('The quick brown fox jumps over the lazy dog, again and again.').toString('base64'),
  Buffer.from('{"name": "dsh-bridge", "version": "0.1.0"}').toString('base64'),
  // npm integrity hashes, as package-lock.json and npm ls print them
  '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
  'sha1-2oFPFIqPvOMPsp7kn6rNxm5zJ7g=',
  // long hex in test output
  'expected 0x9e3779b97f4a7c15f39cc0605cedc8341082276bf3a27251f86c6a11d0c18e95 to equal 0x0',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt',
  // words near secrets that are no secret
  'MAX_TOKENS=4096',
  'PWD=/home/made-up/project',
  'TOKEN_COUNT=12 tokens used',
  'GITHUB_TOKEN=$GITHUB_TOKEN',
  'password: (not set)',
  'https://example.com/path?query=value&page=2',
  'Authorization header missing',
  'key_id=1234 sort_key=name',
  'docker pull node:20-bookworm@sha256:c6f3a1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f',
];
