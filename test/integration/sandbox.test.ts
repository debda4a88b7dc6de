/**
 * Agent sessions in the agent sandbox, in the real extension host through `vscode.lm.invokeTool`:
 * turned on through VS Code's `chat.agent.sandbox.enabled` and through `dsh.terminal.sandbox`,
 * with the rules of `chat.agent.sandbox.*`. VS Code versions that do not declare VS Code's sandbox
 * settings still read them (from the workspace settings file here).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveTerminalConfig } from '../../src/terminal/config';
import { PtyBashBackend } from '../../src/terminal/bash/ptyBash';
import { SandboxRuntime } from '../../src/terminal/sandbox/runtime';
import { TerminalService } from '../../src/terminal/service';
import { SandboxSettings } from '../../src/vscode/terminal/sandboxSettings';
import type { TerminalToolContext } from '../../src/vscode/tools/terminal/context';
import { OpenTool } from '../../src/vscode/tools/terminal/openTool';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { callTool, connectClient, terminalEndpointValue } from '../helpers/host/mcp';
import { until } from '../helpers/wait';
import { SILENT_LOG } from '../../src/common/log';

interface Sandbox {
  on: boolean;
  outsideApproved?: boolean;
  network: unknown;
  writableRoots: string[];
}
interface SendJson {
  waitReason: string;
  waiting?: string;
  exitCode?: number;
  echoOff?: boolean;
  alternateScreen?: boolean;
  foreground?: { command: string };
  sandbox?: Sandbox;
}

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const settingsFile = () => path.join(workspace(), '.vscode', 'settings.json');

/**
 * Sets `key` for the test: in the user settings where this VS Code declares the key, else in the
 * workspace settings file (a key VS Code does not declare is still read from it).
 */
/**
 * Whether setting `key` reads as `expected` (JSON). VS Code merges an object setting it declares
 * with its default object (1.139 declares `chat.agent.sandbox.fileSystem.linux` with empty lists),
 * so for an object only the keys we set are compared.
 */
function reads(key: string, expected: string | undefined): boolean {
  const actual: unknown = vscode.workspace.getConfiguration().get(key);
  const wanted: unknown = expected === undefined ? undefined : JSON.parse(expected);
  if (wanted && actual && typeof wanted === 'object' && typeof actual === 'object' && !Array.isArray(wanted)) {
    return Object.entries(wanted).every(([k, v]) => JSON.stringify((actual as Record<string, unknown>)[k]) === JSON.stringify(v));
  }
  return JSON.stringify(actual) === expected;
}

async function setSetting(key: string, value: unknown): Promise<void> {
  try {
    await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  } catch {
    // Not declared by this VS Code.
  }
  // Removing a value leaves the default in force (undefined for a key this VS Code does not declare).
  const expected = JSON.stringify(value === undefined ? vscode.workspace.getConfiguration().inspect(key)?.defaultValue : value);
  if (!reads(key, expected)) {
    const file = settingsFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const current = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    if (value === undefined) delete current[key];
    else current[key] = value;
    fs.writeFileSync(file, JSON.stringify(current, null, 2));
  }
  await until(`${key} to read ${expected}`, () => reads(key, expected), 10_000);
}

const SETTINGS = [
  'chat.agent.sandbox.enabled',
  'chat.agent.sandbox.allowNetwork',
  'chat.agent.allowedNetworkDomains',
  'chat.agent.sandbox.fileSystem.linux',
  'chat.agent.sandbox.allowUnsandboxedCommands',
  'chat.tools.terminal.sandbox.enabled',
  'dsh.terminal.sandbox',
  'dsh.terminal.env',
];

describe('agent sessions in the agent sandbox', function () {
  this.timeout(180_000);
  let root: string;
  let denied: string;
  let outside: string;
  let server: http.Server;
  let port: number;
  const opened: string[] = [];

  const open = async () => {
    const r = await invokeTool<{ sessionId: string; sandbox: Sandbox }>('dsh_terminal_open', { name: 'sandbox' });
    opened.push(r.json.sessionId);
    return r.json;
  };
  const send = (sessionId: string, input: string, timeoutMs?: number) =>
    invokeTool<SendJson>('dsh_terminal_send', { sessionId, input, timeoutMs });

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    await waitForTools(TERMINAL_TOOLS);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-sandbox-it-'));
    denied = path.join(root, 'denied');
    outside = path.join(root, 'outside');
    fs.mkdirSync(denied);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(denied, 'secret.txt'), 'the secret\n');
    server = http.createServer((_req, res) => res.end('hello from outside\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    for (const sessionId of opened.splice(0)) await invokeTool('dsh_terminal_close', { sessionId }).catch(() => undefined);
  });

  after(async () => {
    server?.close();
    for (const key of SETTINGS) await setSetting(key, undefined).catch(() => undefined);
    fs.rmSync(path.join(workspace(), '.vscode'), { recursive: true, force: true });
    fs.rmSync(path.join(workspace(), 'sandbox-in.txt'), { force: true });
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('on through chat.agent.sandbox.enabled: writes only in the workspace, denyRead unreadable, no network without domains, a domain allowed works', async () => {
    await setSetting('chat.agent.sandbox.enabled', 'on');
    await setSetting('chat.agent.sandbox.fileSystem.linux', { denyRead: [denied] });
    await setSetting('chat.agent.sandbox.allowNetwork', false);
    const session = await open();
    assert.equal(session.sandbox.on, true);
    assert.equal(session.sandbox.network, 'none');
    assert.ok(session.sandbox.writableRoots.includes(workspace()), JSON.stringify(session.sandbox));
    const listed = await invokeTool<{ sessions: { sessionId: string; sandbox: Sandbox }[] }>('dsh_terminal_list', {});
    assert.equal(listed.json.sessions.find((s) => s.sessionId === session.sessionId)?.sandbox.on, true);

    const inside = await send(session.sessionId, `echo in > ${workspace()}/sandbox-in.txt`);
    assert.equal(inside.json.exitCode, 0, inside.text);
    assert.equal(fs.readFileSync(path.join(workspace(), 'sandbox-in.txt'), 'utf8'), 'in\n');
    const out = await send(session.sessionId, `echo out > ${outside}/out.txt`);
    assert.notEqual(out.json.exitCode, 0);
    assert.ok(!fs.existsSync(path.join(outside, 'out.txt')), 'nothing was written outside the workspace');
    const read = await send(session.sessionId, `cat ${denied}/secret.txt`);
    assert.notEqual(read.json.exitCode, 0);
    assert.doesNotMatch(read.text ?? '', /the secret/);
    const blocked = await send(
      session.sessionId,
      `curl -sS --max-time 5 --noproxy '' http://127.0.0.1:${port}/; curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/`,
      30_000,
    );
    assert.doesNotMatch(blocked.text ?? '', /hello from outside/);

    await setSetting('chat.agent.allowedNetworkDomains', ['127.0.0.1']);
    const allowed = await open();
    assert.deepEqual(allowed.sandbox.network, { allowedDomains: ['127.0.0.1'], deniedDomains: [] });
    const through = await send(allowed.sessionId, `curl -sS --max-time 5 --noproxy '' http://127.0.0.1:${port}/`, 30_000);
    assert.match(through.text ?? '', /hello from outside/);
    const run = await invokeTool<SendJson>('dsh_run', { command: 'true' });
    assert.equal(run.json.sandbox?.on, true, 'dsh_run says it ran sandboxed');
    const runSessions = await invokeTool<{ sessions: { sessionId: string; name: string }[] }>('dsh_terminal_list', {});
    opened.push(...runSessions.json.sessions.filter((s) => s.name === 'dsh_run').map((s) => s.sessionId));
    await setSetting('chat.agent.allowedNetworkDomains', undefined);
    await setSetting('chat.agent.sandbox.allowNetwork', undefined);
    await setSetting('chat.agent.sandbox.enabled', undefined);
  });

  it("on through VS Code 1.109's chat.tools.terminal.sandbox.enabled where chat.agent.sandbox.enabled is not set: inside, with that version's network rule (none); off again once removed", async () => {
    await setSetting('chat.tools.terminal.sandbox.enabled', true);
    const session = await open();
    assert.equal(session.sandbox.on, true, JSON.stringify(session.sandbox));
    assert.equal(session.sandbox.network, 'none');
    const out = await send(session.sessionId, `echo out > ${outside}/older.txt`);
    assert.notEqual(out.json.exitCode, 0);
    assert.ok(!fs.existsSync(path.join(outside, 'older.txt')), 'nothing was written outside the workspace');
    await setSetting('chat.tools.terminal.sandbox.enabled', undefined);
    const after = await open();
    assert.equal(after.sandbox.on, false, JSON.stringify(after.sandbox));
  });

  it('turned on while sessions run: one opened outside takes no input (listed with why); dsh_run starts a new session inside, the old one stays readable', async () => {
    await setSetting('dsh.terminal.sandbox', 'off');
    const before = await invokeTool<SendJson & { sessionId: string }>('dsh_run', { command: 'echo opened-outside' });
    opened.push(before.json.sessionId);
    assert.equal(before.json.sandbox?.on, false);
    const plain = await open();
    assert.equal(plain.sandbox.on, false);

    await setSetting('dsh.terminal.sandbox', 'on');
    await assert.rejects(
      send(plain.sessionId, `touch ${outside}/typed.txt`),
      /SANDBOX_REQUIRED|runs outside the agent sandbox.*Nothing was typed/s,
    );
    const after = await invokeTool<SendJson & { sessionId: string }>('dsh_run', { command: `touch ${outside}/after.txt; echo exit=$?` });
    opened.push(after.json.sessionId);
    assert.notEqual(after.json.sessionId, before.json.sessionId, 'dsh_run opened a new session');
    assert.equal(after.json.sandbox?.on, true);
    assert.match(after.text ?? '', /exit=1/);
    assert.ok(
      !fs.existsSync(path.join(outside, 'after.txt')) && !fs.existsSync(path.join(outside, 'typed.txt')),
      'nothing was written outside',
    );
    const listed = await invokeTool<{ sessions: { sessionId: string; inputRefused?: string }[] }>('dsh_terminal_list', {});
    const old = listed.json.sessions.find((s) => s.sessionId === before.json.sessionId);
    assert.match(old?.inputRefused ?? '', /opened while the agent sandbox was off/, JSON.stringify(listed.json));
    assert.equal(listed.json.sessions.find((s) => s.sessionId === after.json.sessionId)?.inputRefused, undefined);
    const read = await invokeTool<{ text?: string }>('dsh_terminal_read', { sessionId: before.json.sessionId });
    assert.match(JSON.stringify(read.json) + (read.text ?? ''), /opened-outside/);
    await setSetting('dsh.terminal.sandbox', undefined);
  });

  it('on through dsh.terminal.sandbox: readiness inside as outside (exit code, input(), password, SIGINT, vim, background job ended on close)', async () => {
    await setSetting('dsh.terminal.sandbox', 'on');
    const { sessionId, sandbox } = await open();
    assert.equal(sandbox.on, true);
    assert.equal(sandbox.network, 'all');
    const fail = await send(sessionId, 'false');
    assert.deepEqual([fail.json.waitReason, fail.json.waiting, fail.json.exitCode], ['stdin_read', 'shell-prompt', 1]);
    const question = await send(sessionId, `python3 -c "print('hi', input('Name: '))"`);
    assert.deepEqual([question.json.waitReason, question.json.waiting], ['stdin_read', 'program-input']);
    assert.match((await send(sessionId, 'Bob')).text ?? '', /hi Bob/);
    const password = await send(sessionId, 'read -s -p "Password: " pw; echo "got ${#pw}"');
    assert.deepEqual([password.json.waiting, password.json.echoOff], ['program-input', true]);
    // A password prompt is the person's: the agent's text is refused; Ctrl-C cancels the prompt.
    await assert.rejects(send(sessionId, 'hunter2'), /PERSON_MUST_ANSWER|reads a secret with echo off/);
    const cancelled = await invokeTool<{ waiting?: string }>('dsh_terminal_send', { sessionId, keys: ['Ctrl-C'] });
    assert.equal(cancelled.json.waiting, 'shell-prompt');
    const sleeping = await send(sessionId, 'sleep 60', 1500);
    assert.equal(sleeping.json.waitReason, 'timeout');
    const signalled = await invokeTool<{ delivered: boolean }>('dsh_terminal_signal', { sessionId, signal: 'SIGINT' });
    assert.equal(signalled.json.delivered, true);
    const back = await send(sessionId, 'echo back');
    assert.equal(back.json.waiting, 'shell-prompt');
    // No viminfo: in the sandbox the home folder is read-only, and a ~/.viminfo left by another
    // vim makes :q! stop at "E138: Can't write viminfo file" and wait for Enter.
    const vim = await send(sessionId, 'vim -u NONE -N -i NONE', 10_000);
    assert.deepEqual([vim.json.waitReason, vim.json.alternateScreen], ['stdin_read', true]);
    await invokeTool('dsh_terminal_send', { sessionId, keys: [':', 'q', '!', 'Enter'] });
    const bg = await send(sessionId, 'sleep 300 & echo "pid $!"');
    assert.equal(bg.json.exitCode, 0);
    const sleeps = () => childSleeps();
    // The job's child runs `sleep` once it has exec'd, which may come after the prompt on a loaded machine.
    await until('the background job to run', () => sleeps().length >= 1, 10_000);
    await invokeTool('dsh_terminal_close', { sessionId });
    await until('the background job to end with its session', () => sleeps().length === 0, 10_000);
    await setSetting('dsh.terminal.sandbox', undefined);
  });

  it('fails closed: with bubblewrap not on PATH the open fails with the install hint and no shell is left', async () => {
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    for (const program of ['bash', 'sh', 'socat', 'python3']) {
      const found = (process.env.PATH ?? '')
        .split(':')
        .map((d) => path.join(d, program))
        .find((p) => fs.existsSync(p));
      if (found && !fs.existsSync(path.join(bin, program))) fs.symlinkSync(found, path.join(bin, program));
    }
    await setSetting('dsh.terminal.sandbox', 'on');
    await setSetting('dsh.terminal.env', { PATH: bin });
    const before = rcShells();
    await assert.rejects(
      invokeTool('dsh_terminal_open', { name: 'no-bwrap' }),
      /bubblewrap \(bwrap\) not found on PATH; install them with `sudo apt-get install bubblewrap socat`/,
    );
    assert.deepEqual(rcShells(), before, 'no shell was started');
    const listed = await invokeTool<{ sessions: { name: string }[] }>('dsh_terminal_list', {});
    assert.ok(!listed.json.sessions.some((s) => s.name === 'no-bwrap'));
    await setSetting('dsh.terminal.env', undefined);
    await setSetting('dsh.terminal.sandbox', undefined);
  });
});

describe('a session outside the agent sandbox (chat.agent.sandbox.allowUnsandboxedCommands)', function () {
  this.timeout(180_000);
  const ALLOW = 'chat.agent.sandbox.allowUnsandboxedCommands';
  let root: string;
  let service: TerminalService;
  let settings: SandboxSettings | undefined;
  let ctx: TerminalToolContext;
  const opened: string[] = [];
  const token = () => new vscode.CancellationTokenSource().token;
  const text = (m: string | vscode.MarkdownString | undefined) => (typeof m === 'string' ? m : (m?.value ?? ''));
  const json = (r: vscode.LanguageModelToolResult) =>
    JSON.parse((r.content[0] as vscode.LanguageModelTextPart).value) as { sessionId: string; sandbox: Sandbox };

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    await waitForTools(TERMINAL_TOOLS);
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-outside-it-')));
    // Tool objects of our own over a service of our own (real node-pty, real sandbox runtime), the
    // policy read from this host's settings as the extension reads it: their prepareInvocation is
    // what VS Code shows (it answers confirmations "yes" unseen in extension tests).
    const log = SILENT_LOG;
    const sandbox = (settings = new SandboxSettings({ storageUri: undefined } as unknown as vscode.ExtensionContext));
    service = new TerminalService(log);
    service.registerBackend(
      new PtyBashBackend(await import('node-pty'), () => resolveTerminalConfig({}), log, {
        sandbox: { runtime: new SandboxRuntime(log), policy: (use) => sandbox.policy(use) },
      }),
    );
    ctx = { service, owner: service.createOwner('outside test'), unavailable: () => undefined, sandboxPolicy: () => sandbox.policy() };
  });
  afterEach(async () => {
    for (const sessionId of opened.splice(0)) await invokeTool('dsh_terminal_close', { sessionId }).catch(() => undefined);
  });
  after(async () => {
    service?.dispose();
    settings?.dispose();
    for (const key of SETTINGS) await setSetting(key, undefined).catch(() => undefined);
    fs.rmSync(path.join(workspace(), '.vscode'), { recursive: true, force: true });
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('allowed: the confirmation says "outside the sandbox", invoke needs that very confirmation (once); the result and the list say on: false', async () => {
    await setSetting('dsh.terminal.sandbox', 'on');
    await setSetting(ALLOW, true);
    const tool = new OpenTool(ctx);
    const input = { name: 'outside', sandbox: false };
    const prepared = await tool.prepareInvocation({ input });
    assert.equal(prepared.confirmationMessages?.title, 'Open an agent terminal outside the sandbox?');
    assert.match(
      text(prepared.confirmationMessages?.message),
      /start a bash session named outside \*\*outside the sandbox\*\*.*with your permissions/,
    );
    assert.match(text(prepared.confirmationMessages?.message), /The agent sandbox is on \(dsh\\\.terminal\\\.sandbox is \\"on\\"\)/);
    // Another tool object never showed this call's confirmation: nothing opens.
    await assert.rejects(
      Promise.resolve(new OpenTool(ctx).invoke({ input, toolInvocationToken: undefined }, token())),
      /needs the person's confirmation of this very call/,
    );
    const first = json(await tool.invoke({ input, toolInvocationToken: undefined }, token()));
    assert.deepEqual(first.sandbox, { on: false, outsideApproved: true, network: 'all', writableRoots: [] });
    assert.deepEqual(service.list(ctx.owner).find((s) => s.sessionId === first.sessionId)?.sandbox, first.sandbox, 'the list shows it');
    const out = await service.send(ctx.owner, first.sessionId, { input: `echo out > ${root}/outside.txt` });
    assert.equal(out.exitCode, 0, out.output);
    assert.equal(fs.readFileSync(path.join(root, 'outside.txt'), 'utf8'), 'out\n');
    await assert.rejects(
      Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined }, token())),
      /needs the person's confirmation/,
      'a confirmation is used once',
    );
    // Without sandbox: false the same settings open a sandboxed session, and its confirmation says so.
    assert.match(
      text((await tool.prepareInvocation({ input: { name: 'inside' } })).confirmationMessages?.message),
      /Runs \*\*inside the agent sandbox\*\*/,
    );
    await service.close(ctx.owner, first.sessionId, 'test done');
  });

  it('through vscode.lm.invokeTool (the installed extension, its confirmation answered yes): on: false, listed, writes outside', async () => {
    await setSetting('chat.agent.sandbox.enabled', 'on');
    await setSetting(ALLOW, true);
    const r = await invokeTool<{ sessionId: string; sandbox: Sandbox }>('dsh_terminal_open', { name: 'outside-lm', sandbox: false });
    opened.push(r.json.sessionId);
    assert.equal(r.json.sandbox.on, false);
    assert.equal(r.json.sandbox.outsideApproved, true);
    const listed = await invokeTool<{ sessions: { sessionId: string; sandbox: Sandbox }[] }>('dsh_terminal_list', {});
    assert.equal(listed.json.sessions.find((s) => s.sessionId === r.json.sessionId)?.sandbox.outsideApproved, true);
    await until(
      'its panel terminal to say it runs outside the sandbox',
      () =>
        vscode.window.terminals.some((t) =>
          new RegExp(`${r.json.sessionId} · outside-lm( · (bash|zsh))? · outside the sandbox`).test(t.name),
        ),
      10_000,
    );
    const out = await invokeTool<SendJson>('dsh_terminal_send', { sessionId: r.json.sessionId, input: `echo lm > ${root}/lm.txt` });
    assert.equal(out.json.exitCode, 0, out.text);
    assert.equal(fs.readFileSync(path.join(root, 'lm.txt'), 'utf8'), 'lm\n');
    const inside = await invokeTool<{ sessionId: string; sandbox: Sandbox }>('dsh_terminal_open', { name: 'inside-lm' });
    opened.push(inside.json.sessionId);
    assert.equal(inside.json.sandbox.on, true, 'the next session without sandbox: false is sandboxed again');
    const run = await invokeTool<SendJson>('dsh_run', { command: 'true', sandbox: false }).catch((e: unknown) => e);
    assert.match(
      String(run),
      /`sandbox` is not one of dsh_run's inputs .*dsh_run runs in its own default session.*dsh_terminal_open \{sandbox: false\}/,
    );
  });

  it('refused where allowUnsandboxedCommands is false (or absent where this VS Code does not declare it): no confirmation, a clear error, no session', async () => {
    await setSetting('dsh.terminal.sandbox', 'on');
    await setSetting(ALLOW, false);
    const tool = new OpenTool(ctx);
    const prepared = await tool.prepareInvocation({ input: { sandbox: false } });
    assert.equal(prepared.confirmationMessages, undefined, 'the person is not asked about a call that will be refused');
    assert.match(text(prepared.invocationMessage), /refused \(chat\.agent\.sandbox\.allowUnsandboxedCommands is false/);
    const before = (await invokeTool<{ sessions: unknown[] }>('dsh_terminal_list', {})).json.sessions.length;
    await assert.rejects(
      invokeTool('dsh_terminal_open', { sandbox: false }),
      /no session was opened outside the agent sandbox: chat\.agent\.sandbox\.allowUnsandboxedCommands is false.*set chat\.agent\.sandbox\.allowUnsandboxedCommands to true/,
    );
    assert.equal((await invokeTool<{ sessions: unknown[] }>('dsh_terminal_list', {})).json.sessions.length, before);
    await setSetting(ALLOW, undefined);
    const declaredDefault = vscode.workspace.getConfiguration().inspect(ALLOW)?.defaultValue;
    if (declaredDefault === undefined) {
      await assert.rejects(invokeTool('dsh_terminal_open', { sandbox: false }), /allowUnsandboxedCommands is not set to true/);
    } else {
      // This VS Code declares it (default true): asking is allowed, as for its own run_in_terminal.
      assert.equal(declaredDefault, true);
      assert.equal(
        (await tool.prepareInvocation({ input: { sandbox: false } })).confirmationMessages?.title,
        'Open an agent terminal outside the sandbox?',
      );
    }
  });

  it('over MCP the confirmation is asked every time, even for a client in dsh.mcp.autoApprove: refused when VS Code cannot ask', async () => {
    await setSetting('dsh.terminal.sandbox', 'on');
    await setSetting(ALLOW, true);
    const c = await connectClient('dsh-test-approved', await terminalEndpointValue());
    try {
      const outside = await callTool(c, 'dsh_terminal_open', { name: 'mcp-outside', sandbox: false });
      assert.equal(outside.isError, true);
      assert.match(
        outside.first,
        /dsh_terminal_open was not run: VS Code could not ask the person.*needs the person's answer every time; no setting allows it without asking/,
      );
      const inside = await callTool<{ sessionId: string; sandbox: Sandbox }>(c, 'dsh_terminal_open', { name: 'mcp-inside' });
      assert.equal(inside.isError, false, inside.first);
      assert.equal(inside.json.sandbox.on, true, 'the same client opens sandboxed sessions without a dialog');
      const listed = await callTool<{ sessions: { name: string }[] }>(c, 'dsh_terminal_list', {});
      assert.deepEqual(
        listed.json.sessions.map((s) => s.name),
        ['mcp-inside'],
      );
    } finally {
      await c.close();
    }
  });
});

/** pids of this host's descendants that run `sleep 300`. */
function childSleeps(): number[] {
  return procs()
    .filter((p) => p.args === 'sleep 300')
    .map((p) => p.pid);
}

/** pids of this host's descendants that run a shell on a DSH Bridge rc file. */
function rcShells(): number[] {
  return procs()
    .filter((p) => /--rcfile \S*dsh-bridge-/.test(p.args))
    .map((p) => p.pid);
}

/** This extension host's descendants with their command lines (other programs on the machine are not ours). */
function procs(): { pid: number; args: string }[] {
  const parent = new Map<number, number>();
  const args = new Map<number, string>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      args.set(Number(name), fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' '));
    } catch {
      // Gone.
    }
  }
  const ours = (pid: number) => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && p > 0 && hops < 64; p = parent.get(p), hops++)
      if (p === process.pid) return true;
    return false;
  };
  return [...args].filter(([pid]) => ours(pid)).map(([pid, a]) => ({ pid, args: a }));
}
