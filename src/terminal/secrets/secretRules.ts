/**
 * The rules that find secrets in text (plain Node, no `vscode` import). Three sources, in order:
 * - secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`, MIT): its
 *   rules run as they are, driven by a minimal rule context (`create(context, options)` then the
 *   `file(source)` handler, whose `context.report({ message, range })` calls are collected). It is
 *   maintained upstream (GitHub, GitLab, npm, Slack, Stripe, OpenAI, Anthropic, AWS, private keys,
 *   basic auth and database URLs, and more).
 * - SUPPLEMENT_RULES: the kinds the preset leaves out (JWTs, Azure keys, PyPI tokens, GCP API keys
 *   and service-account key ids, any URL's password, values of variables whose name says secret in
 *   `env`/`export` output and JSON, private key blocks cut by a page), each a regular expression
 *   with literal anchors and bounded character-class runs only: no nested or unbounded quantifier.
 * - The person's own patterns (`dsh.terminal.secretPatterns`).
 * Not every rule here is linear on hostile text (the preset's are not written to be): callers run
 * them in a worker within a time bound for any text longer than a line (secretRedactor.ts).
 */
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';

/** One secret found: `[start, end)` in UTF-16 code units of the scanned text, and what it is. */
export interface Finding {
  start: number;
  end: number;
  /** What kind of secret, for `[redacted: <label>]`, e.g. `GitHub token`. */
  label: string;
}

/** A pattern of the person's own: matches (the whole match, or its group 1 when it has one) are secrets. */
export interface UserSecretPattern {
  /** The label shown in `[redacted: <label>]`. */
  label: string;
  /** A global regular expression. */
  regex: RegExp;
}

interface RuleReport {
  message: string;
  range: [number, number];
}
interface SecretlintRule {
  meta: { id: string };
  create(context: unknown, options: unknown): { file?: (source: unknown) => void };
}

/** Labels of the preset's reports, by message id (as the rules' `createTranslator` keys name them), else by rule id. */
const PRESET_LABELS: Record<string, string> = {
  AWSAccessKeyID: 'AWS access key ID',
  AWSSecretAccessKey: 'AWS secret access key',
  AWSAccountID: 'AWS account ID',
  GITHUB_TOKEN: 'GitHub token',
  'secretlint-rule-aws': 'AWS key',
  'secretlint-rule-gcp': 'GCP key',
  'secretlint-rule-privatekey': 'private key',
  'secretlint-rule-npm': 'npm token',
  'secretlint-rule-basicauth': 'password in URL',
  'secretlint-rule-slack': 'Slack token',
  'secretlint-rule-sendgrid': 'SendGrid key',
  'secretlint-rule-shopify': 'Shopify token',
  'secretlint-rule-stripe': 'Stripe key',
  'secretlint-rule-github': 'GitHub token',
  'secretlint-rule-gitlab': 'GitLab token',
  'secretlint-rule-grafana': 'Grafana token',
  'secretlint-rule-openai': 'OpenAI key',
  'secretlint-rule-anthropic': 'Anthropic key',
  'secretlint-rule-groq': 'Groq key',
  'secretlint-rule-huggingface': 'Hugging Face token',
  'secretlint-rule-linear': 'Linear key',
  'secretlint-rule-notion': 'Notion token',
  'secretlint-rule-1password': '1Password token',
  'secretlint-rule-database-connection-string': 'password in URL',
  'secretlint-rule-hashicorp-vault': 'Vault token',
  'secretlint-rule-vercel': 'Vercel token',
  'secretlint-rule-databricks': 'Databricks token',
  'secretlint-rule-docker': 'Docker token',
  'secretlint-rule-figma': 'Figma token',
  'secretlint-rule-cloudflare': 'Cloudflare token',
  'secretlint-rule-tailscale': 'Tailscale key',
};

/** Options per preset rule: AWS access key IDs and account IDs are found too (off upstream by default). */
const PRESET_OPTIONS: Record<string, unknown> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };

/** The preset's rules that report secrets (`filter-comments` only hides reports in files). */
const PRESET_RULES: readonly SecretlintRule[] = (() => {
  const rules: SecretlintRule[] = [];
  (recommendedPreset as unknown as SecretlintRule).create({ registerRule: (rule: SecretlintRule) => rules.push(rule) }, {});
  return rules.filter((rule) => !rule.meta.id.endsWith('filter-comments'));
})();

/** Ids of the preset rules in use (for a test that the preset is loaded whole). */
export const PRESET_RULE_IDS: readonly string[] = PRESET_RULES.map((rule) => rule.meta.id);

function presetLabel(ruleId: string, message: string): string {
  return PRESET_LABELS[message] ?? PRESET_LABELS[ruleId.replace('@secretlint/', '')] ?? 'secret';
}

/** Runs every preset rule over `text` and collects its reports. */
function presetFindings(text: string, out: Finding[]): void {
  const source = { content: text, filePath: 'terminal-output.txt', ext: '.txt', contentType: 'text', sourceContent: text };
  for (const rule of PRESET_RULES) {
    const reports: RuleReport[] = [];
    const context = {
      // The message id stands for the message: the text a rule builds holds the secret itself.
      createTranslator: () => (messageId: string) => messageId,
      report: (report: RuleReport) => reports.push(report),
      ignore: () => {},
      sharedOptions: {},
    };
    rule.create(context, PRESET_OPTIONS[rule.meta.id] ?? {}).file?.(source);
    for (const { message, range } of reports) {
      if (!Array.isArray(range) || !(range[1] > range[0])) continue;
      out.push({ start: range[0], end: range[1], label: presetLabel(rule.meta.id, String(message)) });
    }
  }
}

/**
 * A supplementary rule: a global regular expression whose group 1, when present, is the secret
 * (else the whole match), and an optional check of the match (false: not a secret).
 */
interface SupplementRule {
  label: string | ((match: RegExpExecArray) => string);
  regex: RegExp;
  /** @param text the whole text scanned (the match is at `match.index` in it). */
  accept?: (match: RegExpExecArray, text: string) => boolean;
}

/**
 * Last words of a variable or key name that say its value is a secret (`GITHUB_TOKEN`,
 * `client_secret`, `DB_PASSWORD`, `OPENAI_API_KEY`); `PWD` is the working folder, not a password.
 */
const SECRET_NAME =
  /(?:^|[_.-])(?:token|secret|password|passwd|passphrase|pass|pat|credentials?|(?:api|access|private|secret|signing|encryption|master|auth|client)[_-]?key|apikey|auth)$/i;
/** Values that are not secrets themselves: a reference to another variable, a placeholder, a mask. */
/** Whether a variable or key name says its value is a secret; camelCase names are read as words (`clientSecret`, `SecretAccessKey`). */
function secretName(name: string): boolean {
  return SECRET_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}
/** A URL's scheme right before its `://` (RFC 3986: a letter, then letters, digits, `+`, `.`, `-`). */
const URL_SCHEME = /[A-Za-z][A-Za-z0-9+.-]{0,30}$/;
const NOT_A_VALUE = /^(?:\$|%|<|\*+$|x+$|\[redacted|true$|false$|null$|none$|undefined$)/i;

const SUPPLEMENT_RULES: readonly SupplementRule[] = [
  // JSON Web Tokens: three base64url parts, the first two JSON objects (`eyJ` is `{"`).
  { label: 'JWT', regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,4096}/g },
  // Azure: storage account keys (88 base64 characters), Entra ID client secrets (`Q~` at 4th place), SAS signatures.
  { label: 'Azure storage key', regex: /AccountKey=([A-Za-z0-9+/]{86}==)/g },
  { label: 'Azure client secret', regex: /(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/g },
  { label: 'Azure SAS signature', regex: /[?&]sig=([A-Za-z0-9%+/]{20,256}={0,2})/g },
  // PyPI API tokens: `pypi-` and a macaroon whose location is pypi.org (base64 `AgEIcHlwaS5vcmc`).
  { label: 'PyPI token', regex: /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,4096}/g },
  // GCP: API keys, and a service-account key file's key id (its private key is a private key block).
  { label: 'GCP API key', regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { label: 'GCP service account key ID', regex: /"private_key_id\\?"\s{0,8}:\s{0,8}\\?"([0-9a-f]{40})/g },
  // GitHub's newer and GitLab's other token kinds; Stripe webhook secrets; Anthropic admin keys.
  { label: 'GitHub token', regex: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g },
  {
    label: 'GitLab token',
    regex: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|ffct)-[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])/g,
  },
  { label: 'Stripe key', regex: /(?<![A-Za-z0-9_])(?:whsec|sk_live|sk_test|rk_live|rk_test|pk_live)_[A-Za-z0-9]{24,247}(?![A-Za-z0-9])/g },
  { label: 'Anthropic key', regex: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|ort)\d\d-[A-Za-z0-9_-]{80,128}(?![A-Za-z0-9_-])/g },
  { label: 'OpenAI key', regex: /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,256}(?![A-Za-z0-9_-])/g },
  { label: 'Slack token', regex: /(?<![A-Za-z0-9_-])xox[abposr]-[0-9]{6,16}-[A-Za-z0-9-]{8,128}(?![A-Za-z0-9_-])/g },
  // The password of any URL with credentials (`scheme://user:password@host`).
  // (Found from its `://`, the scheme checked behind it by `accept`: a scan from every letter would
  // cost 30 steps a character, and a lookbehind at the start keeps V8 from searching for `://`.)
  {
    label: 'password in URL',
    regex: /:\/\/[^\s:@/"'<>]{0,256}:([^\s@/"'<>]{1,256})@[A-Za-z0-9[]/g,
    accept: (m, text) => URL_SCHEME.test(text.slice(Math.max(0, m.index - 31), m.index)),
  },
  // `NAME=value` in `env`, `export`, `declare -x`, `.env` files: the value of a secret-named variable.
  {
    label: 'secret variable',
    regex: /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,127})=(?:\\?"([^"\\\n]{1,4096})\\?"|'([^'\n]{1,4096})'|([^\s"'`;&|\\]{1,4096}))/g,
    accept: (m) => secretName(m[1]!) && !NOT_A_VALUE.test(m[2] ?? m[3] ?? m[4] ?? ''),
  },
  // `"name": "value"` in JSON, also inside a JSON string (`\"name\": \"value\"`): the value of a secret-named key.
  {
    label: 'secret value',
    regex: /"([A-Za-z_][A-Za-z0-9_.-]{0,127})\\?"\s{0,8}:\s{0,8}\\?"([^"\\\n]{1,8192})/g,
    accept: (m) => secretName(m[1]!) && !NOT_A_VALUE.test(m[2]!),
  },
];

/** Begin and end lines of a private key block (PEM, OpenSSH, PGP). */
const KEY_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const KEY_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * The body of every private key block: from the line after its BEGIN line to the start of its END
 * line, or to the end of the text when the block is cut (a page, a viewport, output still coming).
 * An END line without its BEGIN (a page or screen that starts inside the block) ends a body that
 * starts at the text's start or after the previous END line.
 */
function keyBlockFindings(text: string, out: Finding[]): void {
  KEY_BEGIN.lastIndex = 0;
  KEY_END.lastIndex = 0;
  let from = 0;
  let begin = KEY_BEGIN.exec(text);
  let end = KEY_END.exec(text);
  while (begin || end) {
    if (begin && (!end || begin.index < end.index)) {
      // The body starts on the line after BEGIN: the label stands on a line of its own.
      const start = begin.index + begin[0].length + (text[begin.index + begin[0].length] === '\n' ? 1 : 0);
      KEY_END.lastIndex = start;
      end = KEY_END.exec(text);
      const stop = end ? end.index : text.length;
      if (stop > start) out.push({ start, end: stop, label: 'private key' });
      from = end ? end.index + end[0].length : text.length;
    } else if (end) {
      if (end.index > from) out.push({ start: from, end: end.index, label: 'private key' });
      from = end.index + end[0].length;
    }
    KEY_BEGIN.lastIndex = from;
    KEY_END.lastIndex = from;
    begin = KEY_BEGIN.exec(text);
    end = KEY_END.exec(text);
  }
}

function ruleFindings(
  text: string,
  rules: readonly { label: SupplementRule['label']; regex: RegExp; accept?: SupplementRule['accept'] }[],
  out: Finding[],
): void {
  for (const rule of rules) {
    const regex = rule.regex;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      if (m[0].length === 0) {
        regex.lastIndex++;
        continue;
      }
      if (rule.accept && !rule.accept(m, text)) continue;
      // The secret: the last group that took part (the value after a name), else the whole match.
      let start = m.index;
      let end = m.index + m[0].length;
      const value = [...m]
        .slice(1)
        .reverse()
        .find((g): g is string => g !== undefined);
      if (value !== undefined) {
        start = m.index + m[0].lastIndexOf(value);
        end = start + value.length;
      }
      out.push({ start, end, label: typeof rule.label === 'string' ? rule.label : rule.label(m) });
    }
  }
}

/**
 * Every secret the rules find in `text` (unordered, may overlap). The preset's findings come first,
 * so a kind it names wins over a generic label where they overlap (see redact.ts).
 */
export function findSecrets(text: string, userPatterns: readonly UserSecretPattern[] = []): Finding[] {
  const out: Finding[] = [];
  presetFindings(text, out);
  keyBlockFindings(text, out);
  ruleFindings(text, SUPPLEMENT_RULES, out);
  ruleFindings(
    text,
    userPatterns.map((p) => ({ label: p.label, regex: p.regex })),
    out,
  );
  return out;
}
