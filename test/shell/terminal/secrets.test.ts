/**
 * Secrets in terminal output never reach an agent: a corpus of made-up secrets printed the ways
 * commands print them (plain, JSON, env, split over two writes, wrapped at 80 columns, coloured)
 * on the real pty-bash backend, checked in every path an agent reads; the person's view keeps them.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness, harness } from '../../helpers/terminalHarness';
import { SECRETS, probeOf } from '../../helpers/secretCorpus';
import { until } from '../../helpers/wait';
import { compileUntil } from '../../../src/terminal/readiness/untilPattern';

/** Every probe of the corpus found in `text` (none is the expected answer). */
function leaks(text: string): string[] {
  return SECRETS.filter((s) => text.includes(probeOf(s))).map((s) => `${s.kind} (${probeOf(s)})`);
}

function assertNoSecret(text: string, where: string): void {
  assert.deepEqual(leaks(text), [], `${where} holds secrets`);
}

const singleLine = SECRETS.filter((s) => !s.line.includes('\n'));
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('secret redaction on the real bash backend', function () {
  this.timeout(120_000);
  let h: Harness;
  let id: string;
  /** What the person's panel is fed (raw output). */
  let panel = '';
  let dir: string;

  before(async () => {
    h = harness();
    const opened = await h.service.open(h.owner, { cols: 80, rows: 30 });
    id = opened.sessionId;
    h.service.onOutput(h.owner, id, (text) => (panel += text));
    dir = h.tmp;
    fs.writeFileSync(path.join(dir, 'plain.txt'), SECRETS.map((s) => s.line).join('\n') + '\n');
    fs.writeFileSync(
      path.join(dir, 'secrets.json'),
      JSON.stringify(Object.fromEntries(SECRETS.map((s, i) => [`item${i}`, { kind: s.kind, value: s.line }])), null, 2) + '\n',
    );
    fs.writeFileSync(path.join(dir, 'one-line.txt'), singleLine.map((s) => s.line).join('\n') + '\n');
    fs.writeFileSync(
      path.join(dir, 'env.sh'),
      singleLine.map((s, i) => `export CORPUS_${i}_TOKEN=${shellQuote(s.value)}`).join('\n') + '\n',
    );
  });

  after(async () => {
    await h.dispose();
  });

  const send = (input: string, timeoutMs = 30_000) => h.service.send(h.owner, id, { input, timeoutMs });

  it('send results hold no secret, printed plain, as JSON, by env, split over two writes, wrapped at 80 columns and coloured', async () => {
    const commands: [string, string][] = [
      ['plain', `cat ${dir}/plain.txt`],
      ['json', `cat ${dir}/secrets.json`],
      ['env', `(source ${dir}/env.sh; env | grep ^CORPUS_ | sort)`],
      [
        'split over two writes',
        `while IFS= read -r s; do printf '%s' "\${s:0:14}"; sleep 0.02; printf '%s\\n' "\${s:14}"; done < ${dir}/one-line.txt`,
      ],
      ['wrapped by the terminal', `while IFS= read -r s; do printf '%-70s%s\\n' "$RANDOM wraps here" "$s"; done < ${dir}/one-line.txt`],
      ['folded at 80', `while IFS= read -r s; do printf '%-70s%s\\n' "folded" "$s"; done < ${dir}/one-line.txt | fold -w 80`],
      [
        'coloured',
        `while IFS= read -r s; do printf '\\e[1;32m%s\\e[0m\\e[33m%s\\e[0m%s\\n' "\${s:0:9}" "\${s:9:11}" "\${s:20}"; done < ${dir}/one-line.txt`,
      ],
    ];
    for (const [how, command] of commands) {
      const r = await send(command);
      assert.equal(r.exitCode, 0, `${how}: ${r.output.slice(-300)}`);
      assert.match(r.output, /\[redacted: /, how);
      assertNoSecret(r.output, `the ${how} send result`);
    }
  });

  it('reads, pages, the screen and raw pages hold no secret; line counts are the raw ones', async () => {
    const rendered = await h.service.readAsync(h.owner, id, { count: 5000 });
    assertNoSecret(rendered.text, 'a rendered read');
    const raw = await h.service.readAsync(h.owner, id, { count: 5000, raw: true });
    assertNoSecret(raw.text, 'a raw read');
    const unredacted = h.service.read(h.owner, id, { count: 5000, raw: true });
    assert.equal(raw.text.split('\n').length, unredacted.text.split('\n').length, 'the raw read keeps the line count');
    assert.deepEqual([raw.lineBegin, raw.lineEnd, raw.totalLines], [unredacted.lineBegin, unredacted.lineEnd, unredacted.totalLines]);
    for (let offset = 0; offset < raw.totalLines; offset += 7) {
      const page = await h.service.readAsync(h.owner, id, { offset, count: 9 });
      assertNoSecret(page.text, `the page at offset ${offset}`);
    }
    const screen = await h.service.readAsync(h.owner, id, { screen: true });
    assertNoSecret(screen.text, 'the screen');
    const history = h.service.history(h.owner, id, { count: 200 });
    for (const record of history.commands) {
      const output = await h.service.readAsync(h.owner, id, { command: record.index, count: 5000 });
      assertNoSecret(output.text, `command ${record.index}'s output`);
    }
  });

  it('a search matches the redacted text, never a secret piece by piece', async () => {
    for (const s of SECRETS) {
      const probe = probeOf(s);
      const found = await h.service.search(h.owner, id, { pattern: probe, maxMatches: 5 });
      assert.deepEqual(found.matches, [], `search ${probe} (${s.kind})`);
      const prefix = await h.service.search(h.owner, id, {
        pattern: `${escapeRegex(probe.slice(0, 4))}[A-Za-z0-9_+/=-]{4}`,
        regex: true,
        maxMatches: 100,
      });
      for (const m of prefix.matches)
        assertNoSecret([m.text, ...(m.before ?? []), ...(m.after ?? [])].join('\n'), `a regex search near ${s.kind}`);
    }
    const ghp = await h.service.search(h.owner, id, { pattern: 'ghp_[A-Za-z0-9]', regex: true });
    assert.deepEqual(ghp.matches, [], 'no GitHub token head is found');
    const labels = await h.service.search(h.owner, id, { pattern: '[redacted: GitHub token]', maxMatches: 100 });
    assert.ok(labels.matches.length >= 7, `${labels.matches.length} GitHub tokens found redacted`);
  });

  it('a wait until a secret never matches it; until matches the redacted text', async () => {
    const started = await send(`sleep 0.3; cat ${dir}/one-line.txt; sleep 2; echo done-$((1+1))`, 100);
    assert.equal(started.waitReason, 'timeout');
    const ghp = singleLine[0]!;
    const waited = await h.service.wait(h.owner, id, { until: compileUntil(escapeRegex(probeOf(ghp))), timeoutMs: 10_000 });
    assert.notEqual(waited.waitReason, 'output_match', 'the pattern matched a secret');
    assertNoSecret(waited.output, 'the wait result');
    const next = await send(`sleep 0.3; cat ${dir}/one-line.txt; sleep 3`, 100);
    assert.equal(next.waitReason, 'timeout');
    const labelled = await h.service.wait(h.owner, id, { until: compileUntil('ghp_|\\[redacted: GitHub token\\]'), timeoutMs: 10_000 });
    assert.equal(labelled.waitReason, 'output_match');
    assert.equal(labelled.match, '[redacted: GitHub token]');
    await h.service.wait(h.owner, id, { timeoutMs: 10_000 });
  });

  it('background job output holds no secret, even split over two writes', async () => {
    const { jobId } = h.service.startBackground(h.owner, id, {
      input: `while IFS= read -r s; do printf '%s' "\${s:0:11}"; sleep 0.05; printf '%s\\n' "\${s:11}"; done < ${dir}/one-line.txt`,
    });
    let text = '';
    await until(
      'the job to end',
      async () => {
        const out = await h.service.output(h.owner, id, jobId);
        text += out.text;
        return out.done;
      },
      60_000,
      30,
    );
    assertNoSecret(text, 'the job output');
    assert.equal((text.match(/\[redacted: /g) ?? []).length >= singleLine.length, true, 'every secret was redacted once');
  });

  it('a command line with a secret is redacted in the command record, its search and the listing', async () => {
    const ghp = singleLine[0]!.value;
    await send(`echo ${ghp} >/dev/null`);
    const page = h.service.history(h.owner, id, { count: 1 });
    assert.equal(page.commands[0]!.command, 'echo [redacted: GitHub token] >/dev/null');
    assert.equal(h.service.history(h.owner, id, { contains: ghp.slice(0, 10) }).matching, 0);
    assert.equal(h.service.history(h.owner, id, { contains: 'ghp_' }).matching, 0);
    const running = await send(`bash -c 'sleep 5; true' ${ghp}`, 200);
    assert.equal(running.waitReason, 'timeout');
    const info = h.service.info(h.owner, id);
    assertNoSecret(info.foregroundCommand ?? '', 'the listing');
    assert.match(info.foregroundCommand ?? '', /\[redacted: GitHub token\]/);
    h.service.signal(h.owner, id, 'SIGINT');
    await h.service.wait(h.owner, id, { timeoutMs: 5000 }).catch(() => undefined);
  });

  it("a command line over the record's 1 000 characters with a secret across the cut: no piece of it in the record", async () => {
    const ghp = singleLine[0]!.value;
    for (const pad of [960, 965, 970, 975, 980]) {
      await send(`: ${'x'.repeat(pad)} ${ghp} tail`);
      const recorded = h.service.history(h.owner, id, { count: 1 }).commands[0]!.command;
      assert.ok(recorded.length <= 1000, `${recorded.length} characters`);
      for (let at = 0; at + 8 <= ghp.length; at++)
        assert.ok(!recorded.includes(ghp.slice(at, at + 8)), `pad ${pad}: ${recorded.slice(-60)}`);
    }
  });

  it("a quoted secret the record's 1 000-character bound falls in is left out whole", async () => {
    for (const pad of [940, 950, 960, 970]) {
      await send(`: ${'x'.repeat(pad)}; DB_PASSWORD="correct horse battery staple and more words" true`);
      const recorded = h.service.history(h.owner, id, { count: 1 }).commands[0]!.command;

      for (const word of ['correct', 'horse', 'battery', 'staple'])
        assert.ok(!recorded.includes(word), `pad ${pad}: ${recorded.slice(-60)}`);
    }
  });

  it('a listening process whose command line holds a secret: its port in send, wait and processes results, the secret redacted', async () => {
    const ghp = singleLine[0]!.value;
    const server = `python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); time.sleep(60)' ${ghp} &`;
    await send(server);
    const waited = await h.service.wait(h.owner, id, { untilListening: true, timeoutMs: 20_000 });
    assert.equal(waited.waitReason, 'port_listening');
    const sent = await send('true');
    const report = await h.service.processes(h.owner, id);
    const shown = JSON.stringify({ waited, sent: sent.listening, report });
    assertNoSecret(shown, 'the listening sockets and processes');
    assert.match(shown, /\[redacted: GitHub token\]/);
    await send('kill %1; wait');
  });

  it("the person's view keeps the real text: the panel's feed and its backlog", () => {
    for (const s of SECRETS) assert.ok(panel.includes(probeOf(s)), `the panel shows ${s.kind}`);
    const backlog = h.service.read(h.owner, id, { raw: true, count: 5000 }).text;
    assert.ok(leaks(backlog).length > 0, 'the backlog shows the secrets');
  });

  it('no secret reaches the log', () => {
    assertNoSecret(h.log.lines.join('\n'), 'the log');
  });
});

describe('secret redaction where a byte bound cuts output', function () {
  this.timeout(60_000);
  it('a viewport whose oldest part was dropped inside a secret does not start with the secret’s tail', async () => {
    const h = harness({ maxReadBytes: 4096 });
    try {
      const { sessionId } = await h.service.open(h.owner);
      const secret = SECRETS[0]!.value;
      // The secret, then 4 070 more characters on its line: the newest 4 096 bytes start inside it.
      const r = await h.service.send(h.owner, sessionId, { input: `echo "${secret}$(head -c 4070 /dev/zero | tr '\\0' z)"; echo end` });
      assert.equal(r.truncated, true);
      assert.ok(!r.output.includes(secret.slice(-12)), `the viewport starts with ${JSON.stringify(r.output.slice(0, 30))}`);
      assert.match(r.output, /^…/);
    } finally {
      await h.dispose();
    }
  });
});

describe('secret redaction where the scrollback splits a long line', function () {
  this.timeout(60_000);
  it('a secret across a 16 KiB piece of a longer line is redacted whole in a page, wherever the split falls in it', async () => {
    const h = harness();
    try {
      const { sessionId } = await h.service.open(h.owner);
      const secret = SECRETS[0]!.value;
      // `pad` y's, a blank and the secret: the scrollback stores the line in pieces of 16 KiB
      // (16 381 characters and the marker), and the first piece ends at each place in the secret.
      for (let pad = 16_341; pad < 16_380; pad += 3) {
        await h.service.send(h.owner, sessionId, { input: `printf 'y%.0s' $(seq ${pad}); echo " ${secret} end"` });
        const page = await h.service.readAsync(h.owner, sessionId, { count: 5 });
        for (let at = 0; at + 8 <= secret.length; at++)
          assert.ok(!page.text.includes(secret.slice(at, at + 8)), `pad ${pad}: ${page.text.slice(16_300, 16_450)}`);
        assert.match(page.text, /\[redacted: GitHub token\]/);
      }
    } finally {
      await h.dispose();
    }
  });
});

describe('the message of the day (output before the first prompt) holds no secret', function () {
  this.timeout(60_000);
  /** A harness whose session's ~/.bashrc is `rc`; answers the motd of one opened session. */
  async function motdOf(rc: string, config: Parameters<typeof harness>[0] = {}): Promise<string> {
    const h = harness(config);
    try {
      const home = fs.mkdtempSync(path.join(h.tmp, 'home-'));
      fs.writeFileSync(path.join(home, '.bashrc'), rc);
      const { sessionId } = await h.service.open(h.owner, { env: { HOME: home } });
      return h.service.motd(h.owner, sessionId);
    } finally {
      await h.dispose();
    }
  }

  it('where its 4 096-byte bound cuts a line holding a secret, no piece of the secret is shown', async () => {
    const secret = SECRETS[0]!.value;
    // The secret's line, then 66 lines of 61 bytes and one of 50 (the PTY ends lines with CR LF):
    // 4 076 bytes, so the newest 4 096 bytes start 18 characters before the secret's end.
    const rc = `echo "token ${secret}"\nfor i in $(seq 66); do printf '%059d\\n' "$i"; done\nprintf 'end %044d\\n' 0\n`;
    const motd = await motdOf(rc);
    assert.ok(Buffer.byteLength(motd) <= 4096, `${Buffer.byteLength(motd)} bytes`);
    assert.match(motd, /end 0{44}\r?\n$/, 'the newest lines are kept');
    assert.match(motd, /^0{50}/, 'the line the bound cut is left out whole');
    for (let at = 0; at + 8 <= secret.length; at++) assert.ok(!motd.includes(secret.slice(at, at + 8)), JSON.stringify(motd.slice(0, 40)));
  });

  it("the person's own secret patterns apply to it", async () => {
    const motd = await motdOf('echo "badge CORP-31415926 issued"\n', { secretPatterns: [{ label: 'badge', pattern: 'CORP-[0-9]{8}' }] });
    assert.ok(motd.includes('issued'), JSON.stringify(motd));
    assert.ok(!motd.includes('31415926'), JSON.stringify(motd));
  });
});

describe('secret redaction off', function () {
  this.timeout(60_000);
  it('passes output unchanged', async () => {
    const h = harness({ redactSecrets: false });
    try {
      const { sessionId } = await h.service.open(h.owner);
      const r = await h.service.send(h.owner, sessionId, { input: `echo ${SECRETS[0]!.value}` });
      assert.ok(r.output.includes(SECRETS[0]!.value));
    } finally {
      await h.dispose();
    }
  });
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
