/**
 * The MCP endpoint in the real extension host, driven the way an agent outside Copilot drives it:
 * the SDK's real `Client` launches the stdio bridge from the installed VSIX with the
 * DSH_BRIDGE_MCP a real integrated terminal of this window sees. The launcher's profile has
 * `dsh.mcp.enabled: true` and `dsh.mcp.autoApprove: ["dsh-test-approved"]` (the person's choices),
 * so the client named `dsh-test-approved` may act without a dialog; any other client's side
 * effects need the modal, which VS Code refuses to show in extension-test mode: they are denied.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { ENDPOINT_ENV, McpTestClient, bridgePath, callTool, connectClient, terminalEndpointValue } from '../helpers/host/mcp';
import { runBridge } from '../helpers/runBridge';
import { until } from '../helpers/wait';
import { alive } from '../helpers/processes';
import { removeWorkspaceSettings, setWorkspaceSetting } from '../helpers/host/workspaceSettings';

const INIT =
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'dsh-test-approved', version: '1' } },
  }) + '\n';

describe('MCP endpoint (stdio bridge + SDK Client)', function () {
  this.timeout(120_000);
  let value: string;
  const clients: McpTestClient[] = [];
  const connect = async (name: string) => {
    const c = await connectClient(name, value);
    clients.push(c);
    return c;
  };

  before(async () => {
    await waitForTools(['dsh_terminal_open', 'dsh_lsp']);
    // An enabled endpoint is there without any tool call: onStartupFinished activates the extension.
    await until('activation after startup', () => vscode.extensions.getExtension('dsh.dsh-bridge')!.isActive, 30_000);
    // Other suites rewrite the user settings (as a person does); the machine-scoped choices must survive that.
    await vscode.workspace.getConfiguration().update('dsh.markdown.aliasOrder', 'alias-first', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('dsh.markdown.aliasOrder', undefined, vscode.ConfigurationTarget.Global);
    assert.deepEqual(vscode.workspace.getConfiguration().get('dsh.mcp.autoApprove'), ['dsh-test-approved']);
    value = await terminalEndpointValue();
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
  });

  it("the endpoint is a 0600 socket in a 0700 folder, named with the secret in the terminals' DSH_BRIDGE_MCP", async () => {
    const state = await vscode.commands.executeCommand<{ state: string; socketPath: string }>('dsh.connectAgent');
    assert.equal(state.state, 'listening');
    assert.ok(value.startsWith(`unix:${state.socketPath}#`), "the terminal names this window's socket");
    assert.match(value, /#[0-9a-f]{64}$/);
    assert.equal(fs.statSync(state.socketPath).mode & 0o777, 0o600);
    assert.ok(fs.statSync(state.socketPath).isSocket());
    assert.equal(fs.statSync(path.dirname(state.socketPath)).mode & 0o777, 0o700);
    assert.ok(!JSON.stringify(state).includes(value.slice(-64)), 'the command never returns the secret');
    // It shows ready-to-paste configuration naming the shipped bridge, and never the secret.
    const guide = vscode.window.activeTextEditor?.document;
    assert.equal(guide?.uri.scheme, 'dsh-mcp');
    const text = guide.getText();
    for (const client of ['## Claude Code', '## Codex CLI', '## Gemini CLI']) assert.ok(text.includes(client), client);
    assert.ok(text.includes(`claude mcp add --scope user dsh-bridge -- node ${JSON.stringify(bridgePath())}`));
    assert.ok(text.includes('env_vars = ["DSH_BRIDGE_MCP"]'));
    assert.ok(!text.includes(value.slice(-64)), 'the guide never holds the secret');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('lists the same tools as the Language Model Tools: names, descriptions and input schemas from package.json', async () => {
    const c = await connect('dsh-test-approved');
    const pkg = vscode.extensions.getExtension('dsh.dsh-bridge')!.packageJSON as {
      contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: object }[] };
    };
    const { tools } = await c.client.listTools();
    assert.deepEqual(
      tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      pkg.contributes.languageModelTools.map((t) => ({ name: t.name, description: t.modelDescription, inputSchema: t.inputSchema })),
    );
    // Every listed tool is served (a client the person has not allowed: side effects are refused, nothing runs).
    const unapproved = await connect('dsh-test-unapproved');
    for (const t of tools) {
      const r = await callTool(unapproved, t.name, {});
      assert.doesNotMatch(r.first, /no tool named/, `${t.name} is listed but not served`);
    }
  });

  it('opens a session, runs a command and answers an input() prompt; the session is in the panel named after the client', async () => {
    const c = await connect('dsh-test-approved');
    const open = await callTool<{ sessionId: string }>(c, 'dsh_terminal_open', { name: 'mcp-work' });
    assert.equal(open.isError, false, open.first);
    const { sessionId } = open.json;
    const mirror = await until('the panel terminal', () => vscode.window.terminals.find((t) => t.name.includes(sessionId)), 15_000);
    assert.match(mirror.name, new RegExp(`${sessionId} · dsh-test-approved · mcp-work`));

    const ran = await callTool<{ waitReason: string; waiting: string; exitCode: number }>(c, 'dsh_terminal_send', {
      sessionId,
      input: 'echo from-mcp-$((6*7))',
    });
    assert.equal(ran.json.waiting, 'shell-prompt');
    assert.equal(ran.json.exitCode, 0);
    assert.match(ran.text ?? '', /from-mcp-42/);

    const asked = await callTool<{ waitReason: string; waiting: string }>(c, 'dsh_terminal_send', {
      sessionId,
      input: `python3 -c "n=input('Name: '); print('hi', n)"`,
    });
    assert.equal(asked.json.waitReason, 'stdin_read');
    assert.equal(asked.json.waiting, 'program-input');
    const answered = await callTool<{ waiting: string; exitCode: number }>(c, 'dsh_terminal_send', { sessionId, input: 'Bob' });
    assert.match(answered.text ?? '', /hi Bob/);
    assert.equal(answered.json.waiting, 'shell-prompt');

    const closed = await callTool<{ closed: boolean }>(c, 'dsh_terminal_close', { sessionId });
    assert.equal(closed.json.closed, true);
    await until('the panel terminal to go', () => !vscode.window.terminals.some((t) => t.name.includes(sessionId)), 15_000);
  });

  it('bad input gets the same clear errors as the tools', async () => {
    const c = await connect('dsh-test-approved');
    const viaMcp = await callTool(c, 'dsh_terminal_send', { sessionId: 'pty-999999', input: 'true' });
    assert.equal(viaMcp.isError, true);
    assert.match(viaMcp.first, /pty-999999/);
    const missing = await callTool(c, 'dsh_lsp', { operation: 'jump', filePath: 'ts/l02.ts', line: 1, column: 1 });
    assert.equal(missing.isError, true);
    const viaTool = await invokeTool('dsh_lsp', { operation: 'jump', filePath: 'ts/l02.ts', line: 1, column: 1 }).then(
      () => 'no error',
      (e: Error) => e.message,
    );
    assert.ok(viaTool.includes(missing.first), `same message: ${missing.first} vs ${viaTool}`);
    const unknown = await callTool(c, 'dsh_nope', {});
    assert.equal(unknown.isError, true);
    assert.match(unknown.first, /no tool named "dsh_nope"; tools: .*dsh_terminal_open/);
  });

  it('dsh_lsp: definition and references on the TypeScript fixture and a wiki link, the same answers as invokeTool', async () => {
    const c = await connect('dsh-test-unapproved'); // reads and navigation never ask
    const calls = [
      { operation: 'goToDefinition', filePath: 'ts/l02.ts', line: 2, column: 1 },
      { operation: 'findReferences', filePath: 'ts/l10/a.ts', line: 1, column: 17 },
      { operation: 'goToDefinition', filePath: 'vault/one note.md', line: 3, column: 17 },
    ];
    const at = (l: { path: string; line: number; column: number }) => `${l.path}:${l.line}:${l.column}`;
    // TypeScript may still be loading the project when this file runs alone: wait until it answers.
    await until(
      'TypeScript to answer dsh_lsp',
      () =>
        invokeTool('dsh_lsp', calls[1]!).then(
          () => true,
          (e: Error) => (/not available or not ready/.test(e.message) ? false : Promise.reject(e)),
        ),
      90_000,
      0,
    );
    const answers: string[][] = [];
    for (const input of calls) {
      const viaMcp = await callTool<{ locations: { path: string; line: number; column: number }[] }>(c, 'dsh_lsp', input);
      assert.equal(viaMcp.isError, false, viaMcp.first);
      const viaTool = await invokeTool<{ locations: unknown[] }>('dsh_lsp', input);
      assert.deepEqual(viaMcp.json, viaTool.json);
      answers.push(viaMcp.json.locations.map(at));
    }
    assert.deepEqual(answers, [
      ['ts/l02.ts:1:17'],
      ['ts/l10/a.ts:1:17', 'ts/l10/b.ts:1:9', 'ts/l10/b.ts:2:1'],
      ['vault/another note.md:1:1'],
    ]);
  });

  it("two clients and Copilot cannot see or use each other's sessions", async () => {
    const a = await connect('dsh-test-approved');
    const b = await connect('dsh-test-approved');
    const mine = (await callTool<{ sessionId: string }>(a, 'dsh_terminal_open', { name: 'a-only' })).json.sessionId;
    const copilots = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'copilot-only' })).json.sessionId;
    try {
      const listA = await callTool<{ sessions: { sessionId: string }[] }>(a, 'dsh_terminal_list', {});
      const listB = await callTool<{ sessions: { sessionId: string }[] }>(b, 'dsh_terminal_list', {});
      const listTools = await invokeTool<{ sessions: { sessionId: string }[] }>('dsh_terminal_list', {});
      assert.deepEqual(
        listA.json.sessions.map((s) => s.sessionId),
        [mine],
      );
      assert.deepEqual(listB.json.sessions, []);
      assert.ok(!listTools.json.sessions.some((s) => s.sessionId === mine), "Copilot does not see the client's session");
      for (const [tool, args] of [
        ['dsh_terminal_read', { sessionId: mine }],
        ['dsh_terminal_send', { sessionId: mine, input: 'echo intruder' }],
        ['dsh_terminal_close', { sessionId: mine }],
      ] as const) {
        const r = await callTool(b, tool, args);
        assert.equal(r.isError, true, `${tool} from another client must fail`);
      }
      const fromA = await callTool(a, 'dsh_terminal_read', { sessionId: copilots });
      assert.equal(fromA.isError, true, "a client cannot read Copilot's session");
      assert.doesNotMatch((await callTool(a, 'dsh_terminal_read', { sessionId: mine, raw: true })).text ?? '', /intruder/);
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId: copilots });
      await callTool(a, 'dsh_terminal_close', { sessionId: mine });
    }
  });

  it('each connection is its own owner for dsh.terminal.maxSessionsPerOwner: one at the cap is refused at once, another still opens', async () => {
    await setWorkspaceSetting('dsh.terminal.maxSessionsPerOwner', 2);
    const a = await connect('dsh-test-approved');
    const b = await connect('dsh-test-approved');
    const opened: [McpTestClient, string][] = [];
    try {
      for (let i = 0; i < 2; i++)
        opened.push([a, (await callTool<{ sessionId: string }>(a, 'dsh_terminal_open', { name: `cap-a-${i}` })).json.sessionId]);
      const started = performance.now();
      const refused = await callTool(a, 'dsh_terminal_open', { name: 'cap-a-2' });
      const took = performance.now() - started;
      assert.equal(refused.isError, true);
      assert.match(refused.first, /2 sessions open or opening, and dsh\.terminal\.maxSessionsPerOwner is 2/);
      const other = await callTool<{ sessionId: string }>(b, 'dsh_terminal_open', { name: 'cap-b-0' });
      assert.notEqual(other.isError, true, 'the other connection still opens a session');
      opened.push([b, other.json.sessionId]);
      // The refusal travels the bridge and the socket: well under the time a session takes to open.
      assert.ok(took < 500, `the refusal took ${took.toFixed(0)} ms`);
    } finally {
      for (const [c, sessionId] of opened) await callTool(c, 'dsh_terminal_close', { sessionId });
      await setWorkspaceSetting('dsh.terminal.maxSessionsPerOwner', undefined);
      removeWorkspaceSettings();
    }
  });

  it('a client the person has not allowed is refused its side effects with a clear error; its reads still work', async () => {
    const c = await connect('dsh-test-unapproved');
    const open = await callTool(c, 'dsh_terminal_open', {});
    assert.equal(open.isError, true);
    assert.match(open.first, /dsh_terminal_open was (not run|denied)/);
    assert.match(open.first, /dsh\.mcp\.autoApprove|did not allow/);
    const run = await callTool(c, 'dsh_run', { command: 'touch /tmp/dsh-mcp-should-not-exist' });
    assert.equal(run.isError, true);
    assert.equal(fs.existsSync('/tmp/dsh-mcp-should-not-exist'), false);
    const list = await callTool<{ sessions: unknown[] }>(c, 'dsh_terminal_list', {});
    assert.equal(list.isError, false);
    assert.deepEqual(list.json.sessions, []);
  });

  it('a read outside the workspace is asked every time, even for a client in dsh.mcp.autoApprove: refused when VS Code cannot ask', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-mcp-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.ts'), 'export const secretValue = 42;\n');
      const c = await connect('dsh-test-approved');
      const read = await callTool(c, 'dsh_lsp', { operation: 'hover', filePath: path.join(outside, 'secret.ts'), line: 1, column: 14 });
      assert.equal(read.isError, true);
      assert.match(read.first, /dsh_lsp was not run: VS Code could not ask the person/);
      assert.doesNotMatch(read.first, /secretValue = 42/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a client that disconnects mid-send loses its own sessions (process groups included), nothing else', async () => {
    const a = await connect('dsh-test-approved');
    const other = await connect('dsh-test-approved');
    const keep = (await callTool<{ sessionId: string }>(other, 'dsh_terminal_open', { name: 'survivor' })).json.sessionId;
    const sessionId = (await callTool<{ sessionId: string }>(a, 'dsh_terminal_open', { name: 'doomed' })).json.sessionId;
    const pids = path.join(os.tmpdir(), `dsh-mcp-pids-${process.pid}`);
    fs.rmSync(pids, { force: true });
    const pending = callTool(a, 'dsh_terminal_send', {
      sessionId,
      input: `echo $$ > ${pids}; sh -c 'echo $$ >> ${pids}; exec sleep 300'`,
    }).catch((e: Error) => e);
    const [shell, sleeper] = await until(
      'the pids',
      () => {
        const lines = fs.existsSync(pids) ? fs.readFileSync(pids, 'utf8').trim().split('\n') : [];
        return lines.length === 2 && lines.map(Number);
      },
      15_000,
    );
    assert.ok(alive(shell!) && alive(sleeper!));
    await a.transport.close(); // the bridge goes: the connection drops mid-send
    await pending;
    await until("the session's processes to end", () => !alive(shell!) && !alive(sleeper!), 15_000);
    await until('its panel terminal to go', () => !vscode.window.terminals.some((t) => t.name.includes(sessionId)), 15_000);
    const r = await callTool<{ waiting: string }>(other, 'dsh_terminal_send', { sessionId: keep, input: 'echo still-here' });
    assert.match(r.text ?? '', /still-here/);
    await callTool(other, 'dsh_terminal_close', { sessionId: keep });
    fs.rmSync(pids, { force: true });
  });

  it('a wrong secret is refused before any tool runs: the bridge prints why and exits 1', async () => {
    const wrong = value.replace(/#[0-9a-f]{64}$/, `#${'0'.repeat(64)}`);
    const r = await runBridge([bridgePath()], { [ENDPOINT_ENV]: wrong }, INIT);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the window refused the connection: wrong secret/);
    assert.equal(r.stdout, '', 'no MCP answer at all');
  });

  it('disabled means nothing listens: no socket, no variable in new terminals, the bridge says no window is reachable; enabling again works', async () => {
    const socketPath = value.slice('unix:'.length, value.lastIndexOf('#'));
    await vscode.workspace.getConfiguration().update('dsh.mcp.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await until('the socket to go', () => !fs.existsSync(socketPath), 15_000);
      const r = await runBridge([bridgePath()], { [ENDPOINT_ENV]: value }, INIT);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no VS Code window is reachable/);
      assert.equal(await terminalEndpointValue('none'), '');
      assert.equal(
        (await vscode.commands.executeCommand<{ state: string }>('dsh.connectAgent')).state,
        'off',
        'the command only turns it on after asking, and VS Code cannot ask in tests',
      );
    } finally {
      await vscode.workspace.getConfiguration().update('dsh.mcp.enabled', true, vscode.ConfigurationTarget.Global);
    }
    const fresh = await terminalEndpointValue();
    assert.notEqual(fresh, value, 'a new socket and secret');
    const c = await connectClient('dsh-test-approved', fresh);
    clients.push(c);
    assert.ok((await c.client.listTools()).tools.length > 0);
  });
});
