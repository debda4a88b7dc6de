/**
 * The secret redaction rules and their runner, without a terminal: a corpus of made-up secrets in
 * the shapes commands print them (plain, coloured, split by escapes, folded at 80 columns) is
 * redacted whole, keeping line counts; a false-positive corpus is left alone; the person's own
 * patterns; off; and a hostile pattern stopped at its time bound.
 */
import { strict as assert } from 'node:assert';
import { NOT_SECRETS, SECRETS, probeOf } from '../../helpers/secretCorpus';
import { redactSecrets } from '../../../src/terminal/secrets/redact';
import { LINE_SPLIT_MARKER } from '../../../src/terminal/output/scrollback';
import { SecretRedactor, WITHHELD_NOTICE } from '../../../src/terminal/secrets/secretRedactor';
import { PRESET_RULE_IDS } from '../../../src/terminal/secrets/secretRules';
import { withoutCutHead, unfinishedTail } from '../../../src/terminal/secrets/heldTail';
import { redactionWorkerEntry } from '../../helpers/workerEntry';
import { packageJson } from '../../helpers/packageJson';
import { MAX_SECRET_PATTERNS, MAX_SECRET_PATTERN_LENGTH, resolveTerminalConfig } from '../../../src/terminal/config';

/** Every probe of the corpus found in `text` (none is the expected answer). */
function leaks(text: string): string[] {
  return SECRETS.filter((s) => text.includes(probeOf(s))).map((s) => `${s.kind} (${probeOf(s)})`);
}

describe('secret redaction rules', () => {
  it('the corpus has at least 40 secrets and the preset is loaded whole', () => {
    assert.ok(SECRETS.length >= 40, `${SECRETS.length} secrets`);
    for (const id of ['github', 'gitlab', 'npm', 'aws', 'gcp', 'slack', 'stripe', 'openai', 'anthropic', 'privatekey', 'basicauth']) {
      assert.ok(
        PRESET_RULE_IDS.some((r) => r.endsWith(`secretlint-rule-${id}`)),
        `secretlint's ${id} rule is in use`,
      );
    }
  });

  it('finds every secret of the corpus, plain, coloured, split by escapes and wrapped at 80 columns, keeping the line count', () => {
    for (const s of SECRETS) {
      const forms = [
        s.line,
        `\x1b[1;31m${s.line}\x1b[0m`,
        `${s.line.slice(0, 8)}\x1b[32m${s.line.slice(8)}\x1b[0m`,
        `${s.line}\r\n`,
        // Hard-wrapped at 80 columns (fold -w 80) after a prefix.
        `${'x'.repeat(70)} ${s.line}`.replace(/[^\n]{80}(?=[^\n])/g, (m) => `${m}\n`),
      ];
      for (const form of forms) {
        const { text, count } = redactSecrets(form);
        assert.ok(count > 0, `${s.kind} not found in ${JSON.stringify(form.slice(0, 120))}`);
        assert.deepEqual(leaks(text), [], `${s.kind} in ${JSON.stringify(form.slice(0, 80))}: ${JSON.stringify(text.slice(0, 300))}`);
        assert.equal(text.split('\n').length, form.split('\n').length, `${s.kind}: line count kept`);
        assert.match(text, /\[redacted: [^\]]+\]/);
      }
    }
  });

  it("a secret across the scrollback's line pieces is found whole; a line a program ends with the marker joins nothing away", () => {
    const ghp = SECRETS[0]!.value;
    const shown = (text: string) => redactSecrets(text).text;
    for (let cut = 1; cut < ghp.length; cut++) {
      const pieces = `log ${ghp.slice(0, cut)}${LINE_SPLIT_MARKER}\n${ghp.slice(cut)} end\n`;
      assert.equal(shown(pieces), `log [redacted: GitHub token]${LINE_SPLIT_MARKER}\n end\n`, `cut at ${cut}`);
    }
    // A program printing the marker at a line's end: read joined, the token would follow `x`.
    assert.equal(shown(`x${LINE_SPLIT_MARKER}\n${ghp}\n`), `x${LINE_SPLIT_MARKER}\n[redacted: GitHub token]\n`);
  });

  it('labels secrets by kind', () => {
    const label = (line: string) => /\[redacted: ([^\]]+)\]/.exec(redactSecrets(line).text)?.[1];
    assert.equal(label(SECRETS[0]!.line), 'GitHub token');
    assert.equal(label(SECRETS.find((s) => s.kind === 'AWS secret access key')!.line), 'AWS secret access key');
    assert.equal(label(SECRETS.find((s) => s.kind === 'RSA private key')!.line), 'private key');
    assert.equal(label(SECRETS.find((s) => s.kind === 'JWT')!.line), 'JWT');
    assert.equal(redactSecrets('https://deploy:Pw123456@host/x').text, 'https://deploy:[redacted: password in URL]@host/x');
    assert.equal(redactSecrets('GITHUB_TOKEN=abc123def').text, 'GITHUB_TOKEN=[redacted: secret variable]');
  });

  it('redacts nothing of the false-positive corpus (git SHAs, UUIDs, base64 of text, integrity hashes, long hex)', () => {
    for (const text of NOT_SECRETS) assert.equal(redactSecrets(text).text, text);
  });

  it('settings: patterns are checked at load, naming what is wrong and what is valid; package.json agrees', () => {
    assert.throws(
      () => resolveTerminalConfig({ secretPatterns: [{ label: 'x', pattern: '(' }] }),
      /secretPatterns\[0\]\.pattern is not a valid JavaScript regular expression/,
    );
    assert.throws(
      () => resolveTerminalConfig({ secretPatterns: ['acme_.*'] as never }),
      /secretPatterns\[0\] must be \{"label": <1–60 characters>, "pattern": <regular expression>\}/,
    );
    assert.throws(() => resolveTerminalConfig({ redactSecrets: 'no' as never }), /redactSecrets must be true or false/);
    const props = packageJson().contributes.configuration.properties;
    assert.equal(props['dsh.terminal.secretPatterns']?.maxItems, MAX_SECRET_PATTERNS);
    assert.equal(props['dsh.terminal.secretPatterns']?.items?.properties?.pattern?.maxLength, MAX_SECRET_PATTERN_LENGTH);
  });

  it("adds the person's own patterns, group 1 being the secret", async () => {
    const redactor = new SecretRedactor(redactionWorkerEntry(), () => ({
      enabled: true,
      patterns: [{ label: 'ACME key', pattern: 'acme=(acme_[a-z0-9]{16})' }],
    }));
    assert.equal(await redactor.redact('id acme=acme_0123456789abcdef end'), 'id acme=[redacted: ACME key] end');
  });

  it('off: texts pass unchanged', async () => {
    const redactor = new SecretRedactor(redactionWorkerEntry(), () => ({ enabled: false, patterns: [] }));
    assert.equal(await redactor.redact(SECRETS[0]!.line), SECRETS[0]!.line);
    assert.equal(redactor.redactLine(SECRETS[0]!.line), SECRETS[0]!.line);
  });

  it('streamed pieces hold back what may be the head of a secret, and a cut start loses what may be its tail', () => {
    assert.equal(unfinishedTail('token: ghp_abc'), 'token: '.length);
    assert.equal(unfinishedTail('Password: '), 'Password: '.length);
    assert.equal(unfinishedTail('ready'), 'ready'.length, 'a short word is not held');
    assert.equal(unfinishedTail('line one\nhalf a li', true), 'line one\n'.length);
    assert.equal(unfinishedTail(`${'x'.repeat(80)}\n`), 0, 'a line folded at 80 columns may go on');
    assert.equal(unfinishedTail('a'.repeat(1_000_000)), 1_000_000, 'a flood is not held (and is scanned once)');
    assert.equal(withoutCutHead('Ab12cdEF34 rest'), '… rest');
    assert.equal(withoutCutHead('45678\n45679'), '45678\n45679', 'a cut number is left as it is');
  });

  it('hostile text is bounded: past its time bound the worker is stopped and the text withheld, line count kept', async () => {
    const redactor = new SecretRedactor(
      redactionWorkerEntry(),
      () => ({ enabled: true, patterns: [{ label: 'slow', pattern: '(a+)+b' }] }),
      undefined,
      300,
    );
    const hostile = `${'a'.repeat(40)}\n${'a'.repeat(40)}`;
    const started = Date.now();
    const out = await redactor.redact(hostile);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.equal(out, `${WITHHELD_NOTICE}\n`);
  });
});
