/**
 * Password prompts go to the person: a program that reads the terminal with echo off (`read -s`,
 * as sudo and ssh do) ends a send with the guidance that the person answers; an agent's text into
 * it is refused; the one-line take-over of the extension API delivers a line and hands back, and
 * what was typed is in no result, record or log. Real pty-bash backend.
 */
import { strict as assert } from 'node:assert';
import { Harness, harness } from '../../helpers/terminalHarness';
import { createTerminalApi, type OwnerHandle, type TerminalApi } from '../../../src/terminal/terminalApi';
import type { SessionEvent } from '../../../src/terminal/service';
import { until } from '../../helpers/wait';
import { ANSWER_IN_TERMINAL, secretPromptNotice } from '../../../src/terminal/secrets/secretPromptNotice';

const PASSWORD = 'made-up-Passw0rd-7Q2';
const PROMPT = `read -s -p 'Password: ' pw; echo; echo "got \${#pw} characters"`;

describe('password prompts go to the person', function () {
  this.timeout(60_000);
  let h: Harness;
  let api: TerminalApi;
  let owner: OwnerHandle;
  let id: string;
  const events: SessionEvent[] = [];

  beforeEach(async () => {
    h = harness();
    api = createTerminalApi(h.service);
    owner = api.createOwner('secret-prompt test');
    id = (await api.open(owner)).sessionId;
    events.length = 0;
    api.onDidChangeSessions(owner, (e) => events.push(e));
  });

  afterEach(async () => {
    owner.dispose();
    await h.dispose();
  });

  it('a send that ends at a read with echo off says the person must answer and how long to wait; a secret-prompt event is sent', async () => {
    const r = await api.send(owner, id, { input: PROMPT });
    assert.deepEqual([r.waitReason, r.waiting, r.echoOff], ['stdin_read', 'program-input', true]);
    assert.match(r.guidance ?? '', /reads a secret with echo off.*the person must type it, not you/);
    assert.match(r.guidance ?? '', /dsh_terminal_wait \(timeoutMs 300000\)/);
    assert.ok(
      events.some((e) => e.kind === 'secret-prompt' && e.sessionId === id),
      'a secret-prompt event',
    );
    const plain = await api.send(owner, id, { keys: ['Ctrl-C'] });
    assert.equal(plain.echoOff, undefined, 'Ctrl-C is let through, and the shell prompt is no password prompt');
  });

  it('the notice for the person names the program that asks and the session, with the one-line take-over as its action', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const noticeNow = () => secretPromptNotice(sessionId, h.service.sendTarget(h.owner, sessionId).receiver);
    const builtin = await h.service.send(h.owner, sessionId, { input: PROMPT });
    assert.equal(builtin.echoOff, true);
    assert.deepEqual(noticeNow(), {
      sessionId,
      program: 'bash',
      message: `bash asks for a password in ${sessionId}. Type it in the terminal: it goes to the program only, never to the agent.`,
      action: ANSWER_IN_TERMINAL,
    });
    await h.service.send(h.owner, sessionId, { keys: ['Ctrl-C'] });
    const getpass = await h.service.send(h.owner, sessionId, { input: `python3 -c 'import getpass; getpass.getpass("Token: ")'` });
    assert.equal(getpass.echoOff, true);
    assert.match(noticeNow().message, new RegExp(`^python3 asks for a password in ${sessionId}\\.`));
    await h.service.send(h.owner, sessionId, { keys: ['Ctrl-C'] });
    // At the shell's prompt nobody asks for a password: no program is named.
    assert.equal(noticeNow().program, 'a program');
  });

  it("an agent's text, or printable keys, into the echo-off read are refused and nothing is typed", async () => {
    await api.send(owner, id, { input: PROMPT });
    await assert.rejects(api.send(owner, id, { input: PASSWORD }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'PERSON_MUST_ANSWER');
      assert.match(
        e.message,
        /^nothing was typed: bash reads a secret with echo off .*the person must type it, not you.*dsh_terminal_wait.*keys \["Ctrl-C"\]/,
      );
      return true;
    });
    await assert.rejects(api.send(owner, id, { keys: ['a', 'Enter'] }), /PERSON_MUST_ANSWER|the person must type it/);
    // A background send is refused the same way: its job ends with the error.
    const { jobId } = api.startBackground(owner, id, { input: PASSWORD });
    const out = await until('the background send to end', async () => {
      const o = await api.output(owner, id, jobId);
      return o.done && o;
    });
    assert.match(out.error ?? '', /nothing was typed/);
    // Still waiting for the password: the read got nothing.
    const still = await api.read(owner, id, { screen: true });
    assert.doesNotMatch(still.text, /got \d+ characters/);
  });

  it('the one-line take-over delivers the line, hands back on Enter, and the line is in no result, record or log', async () => {
    await api.send(owner, id, { input: PROMPT });
    assert.equal(api.takeOverLine(owner, id), true);
    assert.deepEqual(
      api.list(owner).map((s) => [s.takenOver, s.lineTakeOver]),
      [[true, true]],
    );
    await assert.rejects(api.send(owner, id, { input: 'echo agent' }), /TAKEN_OVER|taken over/);
    api.typeLine(owner, id, PASSWORD.slice(0, 5));
    assert.equal(api.list(owner)[0]!.takenOver, true, 'not handed back before Enter');
    api.typeLine(owner, id, `${PASSWORD.slice(5)}\r`);
    assert.deepEqual(
      api.list(owner).map((s) => [s.takenOver, s.lineTakeOver]),
      [[false, undefined]],
      'handed back on Enter',
    );
    assert.ok(events.some((e) => e.kind === 'changed'));
    assert.throws(() => api.typeLine(owner, id, 'more\r'), /not in a one-line take-over/);
    // The program got the line; the session is the agent's again.
    await until('the read to return', async () => /got \d+ characters/.test((await api.read(owner, id, { count: 20 })).text));
    const after = await api.send(owner, id, { input: 'echo back-to-agent' });
    assert.equal(after.exitCode, 0);
    const page = await api.read(owner, id, { count: 100 });
    assert.match(page.text, new RegExp(`got ${PASSWORD.length} characters`));
    const texts = [
      page.text,
      (await api.read(owner, id, { count: 100, raw: true })).text,
      after.output,
      JSON.stringify(api.history(owner, id, { count: 200 })),
      JSON.stringify((await api.search(owner, id, { pattern: PASSWORD.slice(0, 8) })).matches),
      h.log.lines.join('\n'),
    ];
    for (const text of texts) assert.ok(!text.includes(PASSWORD.slice(0, 8)), `the password is in ${text.slice(0, 200)}`);
  });
});
