/**
 * Secrets stay with the person, in a real extension host, through `vscode.lm.invokeTool` and over
 * MCP (the SDK's Client through the shipped stdio bridge): a corpus of made-up secrets printed by
 * a command is in no tool result (send, read, search, wait, background output, history); the
 * panel terminal shows them; a `read -s` password prompt is answered by the person, and an
 * agent's text into it is refused.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { ToolCall as Call, mcpSessionPerTest } from '../helpers/host/mcpSessions';
import { panelText } from '../helpers/host/ui';
import { extensionLogText } from '../helpers/host/extensionLog';
import { SECRETS, probeOf } from '../helpers/secretCorpus';
import { until } from '../helpers/wait';

/** A tool call as both surfaces answer it; a tool error rejects with its message. */

const probes = SECRETS.map(probeOf);
function assertNoSecret(value: unknown, where: string): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  assert.deepEqual(
    probes.filter((p) => text.includes(p)),
    [],
    `${where} holds secrets`,
  );
}

function corpusFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-secrets-'));
  const file = path.join(dir, 'secrets.txt');
  fs.writeFileSync(file, SECRETS.map((s) => s.line).join('\n') + '\n');
  return file;
}

/** The checks both surfaces must pass on the caller's session `sessionId`. */
async function noSecretReachesTheAgent(call: Call, sessionId: string): Promise<void> {
  const file = corpusFile();
  const sent = await call<{ exitCode: number }>('dsh_terminal_send', {
    sessionId,
    input: `cat ${file}; printf '%s' "$(sed -n 1p ${file} | cut -c1-14)"; sleep 0.1; sed -n 1p ${file} | cut -c15-`,
  });
  assert.equal(sent.json.exitCode, 0);
  assert.match(sent.text ?? '', /\[redacted: GitHub token\]/);
  assertNoSecret(sent, 'dsh_terminal_send');
  for (const input of [{}, { raw: true }, { screen: true }, { offset: 5, count: 10 }])
    assertNoSecret(await call('dsh_terminal_read', { sessionId, ...input }), `dsh_terminal_read ${JSON.stringify(input)}`);
  for (const s of SECRETS.slice(0, 12)) {
    const found = await call<{ matches: unknown[] }>('dsh_terminal_read', { sessionId, search: probeOf(s) });
    assert.deepEqual(found.json.matches, [], `search ${probeOf(s)}`);
  }
  const started = await call<{ waitReason: string }>('dsh_terminal_send', {
    sessionId,
    input: `sleep 0.3; cat ${file}; sleep 2`,
    timeoutMs: 100,
  });
  assert.equal(started.json.waitReason, 'timeout');
  const waited = await call<{ waitReason: string }>('dsh_terminal_wait', { sessionId, until: probeOf(SECRETS[0]!), timeoutMs: 10_000 });
  assert.notEqual(waited.json.waitReason, 'output_match');
  assertNoSecret(waited, 'dsh_terminal_wait');
  const job = await call<{ jobId: string }>('dsh_terminal_send', { sessionId, input: `cat ${file}`, background: true });
  let output = '';
  await until(
    'the background send',
    async () => {
      const out = await call<{ done: boolean }>('dsh_terminal_output', { sessionId, jobId: job.json.jobId });
      output += JSON.stringify(out);
      return out.json.done;
    },
    30_000,
    200,
  );
  assertNoSecret(output, 'dsh_terminal_output');
  await call('dsh_terminal_send', { sessionId, input: `echo ${SECRETS[0]!.value} >/dev/null` });
  const history = await call<{ commands: { command: string }[] }>('dsh_terminal_history', { sessionId });
  assertNoSecret(history, 'dsh_terminal_history');
  assert.equal(history.json.commands[0]!.command, 'echo [redacted: GitHub token] >/dev/null');
  assertNoSecret(await call('dsh_terminal_list', {}), 'dsh_terminal_list');
}

/** A `read -s` prompt: the result says the person answers; the agent's text into it is refused. */
async function passwordPromptGoesToThePerson(call: Call, sessionId: string): Promise<void> {
  const prompt = await call<{ waiting: string; echoOff: boolean; guidance: string }>('dsh_terminal_send', {
    sessionId,
    input: `read -s -p 'Password: ' pw; echo; echo "got \${#pw}"`,
  });
  assert.deepEqual([prompt.json.waiting, prompt.json.echoOff], ['program-input', true]);
  assert.match(prompt.json.guidance, /the person must type it, not you.*dsh_terminal_wait/);
  await assert.rejects(
    call('dsh_terminal_send', { sessionId, input: 'made-up-password' }),
    /nothing was typed: bash reads a secret with echo off/,
  );
  const cancelled = await call<{ waiting: string }>('dsh_terminal_send', { sessionId, keys: ['Ctrl-C'] });
  assert.equal(cancelled.json.waiting, 'shell-prompt');
}

describe('secrets through vscode.lm.invokeTool', function () {
  this.timeout(180_000);
  let sessionId: string;
  const call: Call = (name, input) => invokeTool(name, input);

  before(async () => waitForTools(TERMINAL_TOOLS));
  beforeEach(async () => {
    sessionId = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'secrets' })).json.sessionId;
  });
  afterEach(async () => {
    await invokeTool('dsh_terminal_close', { sessionId }).catch(() => undefined);
  });

  it('secrets: no secret of the corpus reaches a tool result; the panel terminal shows them', async () => {
    await noSecretReachesTheAgent(call, sessionId);
    const mirror = await until('the mirror terminal', () => vscode.window.terminals.find((t) => t.name.includes(sessionId)));
    const shown = await until(
      'a secret in the panel',
      async () => {
        const lines = (await panelText(mirror)).join('\n');
        return probes.some((p) => lines.includes(p)) && lines;
      },
      15_000,
      300,
    );
    assert.ok(shown);
  });

  it('secrets: a password prompt is for the person; the agent’s text into it is refused', async () => {
    await passwordPromptGoesToThePerson(call, sessionId);
  });

  it('secrets: a password prompt notifies the person, naming the program and the session; its action takes over one line, which reaches the program and hands back', async () => {
    const password = 'made-up-Passw0rd-4kQ9';
    const mirror = await until('the mirror terminal', () => vscode.window.terminals.find((t) => t.name.includes(sessionId)));
    await vscode.commands.executeCommand('notifications.clearAll');
    const prompt = await call<{ echoOff: boolean }>('dsh_terminal_send', {
      sessionId,
      input: `read -s -p 'Password: ' pw; echo; echo "got \${#pw} characters"`,
    });
    assert.equal(prompt.json.echoOff, true);
    // The notification is asked for with its text in the log (VS Code gives an extension no way to read a shown one).
    await until(
      'the notification in the extension’s log',
      () => extensionLogText().includes(`secret prompt: notified the person: bash asks for a password in ${sessionId}.`),
      20_000,
      200,
    );
    // Its action, as the person clicks it (the newest notification's first button).
    const lineTakeOver = '(you: type the password, then Enter)';
    await until(
      'the one-line take-over from the notification’s action',
      async () => {
        await vscode.commands.executeCommand('notification.acceptPrimaryAction');
        return mirror.name.includes(lineTakeOver);
      },
      10_000,
      300,
    );
    assert.equal(vscode.window.activeTerminal, mirror, 'the action focuses the session’s panel terminal');
    await assert.rejects(call('dsh_terminal_send', { sessionId, input: 'echo agent' }), /taken over/);
    mirror.sendText(password, true);
    const answered = await until(
      'the program to get the line',
      async () => {
        const page = await call('dsh_terminal_read', { sessionId, count: 20 });
        return page.text?.includes(`got ${password.length} characters`) && page;
      },
      10_000,
      200,
    );
    await until('the hand-back on Enter', () => !mirror.name.includes(lineTakeOver));
    // The shell's prompt after the program: the wait returns at it, or refuses as the shell is at it already.
    const atPrompt = await call<{ waiting: string }>('dsh_terminal_wait', { sessionId, timeoutMs: 10_000 }).then(
      (r) => r.json.waiting,
      (e: Error) => (/nothing to wait for: no command is running; the shell is at its prompt/.test(e.message) ? 'shell-prompt' : e.message),
    );
    assert.equal(atPrompt, 'shell-prompt');
    const after = await call<{ exitCode: number }>('dsh_terminal_send', { sessionId, input: 'echo back-to-agent' });
    assert.equal(after.text, 'back-to-agent');
    const seen = [
      answered,
      after,
      await call('dsh_terminal_read', { sessionId, raw: true }),
      await call('dsh_terminal_history', { sessionId }),
      extensionLogText(),
    ];
    assert.ok(!JSON.stringify(seen).includes(password), 'the typed line is in a result or the log');
  });
});

describe('secrets over MCP', function () {
  this.timeout(180_000);
  const { call, sessionId: session } = mcpSessionPerTest('mcp-secrets');

  it('secrets: no secret of the corpus reaches a tool result over MCP', async () => {
    await noSecretReachesTheAgent(call, session());
  });

  it('secrets: a password prompt is for the person over MCP; the agent’s text into it is refused', async () => {
    await passwordPromptGoesToThePerson(call, session());
  });
});
