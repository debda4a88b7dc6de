/**
 * VS Code's terminal auto-approve rules, followed in a real extension host: with
 * `chat.tools.terminal.autoApprove` set to `{"git status": true, "rm": false}` in the workspace,
 * `git status` needs no confirmation (prepareInvocation returns none, which is how VS Code runs a
 * call without asking) and its result says `approval.by = "rule"`; a line that also runs `rm`, a
 * command substitution, an alias, `bash -c` and input to a running python3 REPL ask the person.
 * In VS Code 1.100, which registers none of these settings, every send asks. VS Code answers
 * confirmations "yes" in extension tests, so what prepareInvocation returns is checked directly.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalThread } from '../../src/approval/approvalThread';
import { SILENT_LOG } from '../../src/common/log';
import { resolveTerminalConfig } from '../../src/terminal/config';
import type { Owner } from '../../src/terminal/owner';
import { PtyBashBackend } from '../../src/terminal/bash/ptyBash';
import { TerminalService } from '../../src/terminal/service';
import type { TerminalToolContext } from '../../src/vscode/tools/terminal/context';
import { SendTool } from '../../src/vscode/tools/terminal/sendTool';
import { until } from '../helpers/wait';
import { removeWorkspaceSettings, setWorkspaceSetting } from '../helpers/host/workspaceSettings';
import { callTool, connectClient, terminalEndpointValue } from '../helpers/host/mcp';

const RULES_KEY = 'chat.tools.terminal.autoApprove';

describe('terminal auto-approve rules', function () {
  this.timeout(120_000);
  let service: TerminalService;
  let owner: Owner;
  let ctx: TerminalToolContext;
  let thread: ApprovalThread;
  let tmp: string;
  let sessionId: string;
  /** Whether this VS Code registers the rules setting (1.139 does, 1.100 does not). */
  const registered = () => vscode.workspace.getConfiguration().inspect(RULES_KEY)?.defaultValue !== undefined;

  before(async () => {
    service = new TerminalService(SILENT_LOG);
    service.registerBackend(new PtyBashBackend(await import('node-pty'), () => resolveTerminalConfig({}), SILENT_LOG));
    const ext = vscode.extensions.all.find((e) => (e.packageJSON as { name?: string }).name === 'dsh-bridge');
    assert.ok(ext, 'the extension is installed');
    thread = new ApprovalThread(
      path.join(ext.extensionPath, 'dist', 'approvalWorker.js'),
      path.join(ext.extensionPath, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'),
    );
    await setWorkspaceSetting(RULES_KEY, { 'git status': true, rm: false });
  });
  after(async () => {
    await setWorkspaceSetting(RULES_KEY, undefined);
    removeWorkspaceSettings();
    void thread.dispose();
    service.dispose();
  });
  beforeEach(async () => {
    owner = service.createOwner('auto-approve test');
    ctx = { service, owner, unavailable: () => undefined, approval: thread };
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-approve-')));
    sessionId = (await service.open(owner, { cwd: tmp })).sessionId;
  });
  afterEach(async () => {
    await Promise.allSettled(service.list(owner).map((s) => service.close(owner, s.sessionId, 'test done')));
    owner.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const token = () => new vscode.CancellationTokenSource().token;
  async function prepared(tool: SendTool, input: string) {
    return await tool.prepareInvocation({ input: { sessionId, input } });
  }
  async function approvalOf(tool: SendTool, input: string): Promise<unknown> {
    const r = await tool.invoke({ input: { sessionId, input }, toolInvocationToken: undefined }, token());
    const json = JSON.parse((r.content[0] as vscode.LanguageModelTextPart).value) as { approval?: unknown };
    return json.approval;
  }

  it('git status: approved by the rule without a confirmation (1.139); asked in a VS Code without the setting (1.100)', async () => {
    const tool = new SendTool(ctx);
    const p = await prepared(tool, 'git status');
    if (registered()) {
      assert.equal(p.confirmationMessages, undefined, 'no confirmation: VS Code runs it without asking');
      assert.deepEqual(await approvalOf(tool, 'git status'), { by: 'rule', rules: [{ key: 'git status', source: 'settings' }] });
    } else {
      assert.ok(p.confirmationMessages, 'asked');
      assert.deepEqual(await approvalOf(tool, 'git status'), { by: 'person' });
    }
  });

  for (const line of ['git status; rm x', 'echo $(rm x)', "bash -c 'rm x'"]) {
    it(`${line}: asks the person, naming why`, async () => {
      const tool = new SendTool(ctx);
      const p = await prepared(tool, line);
      assert.ok(p.confirmationMessages, 'asked');
      const message = (p.confirmationMessages.message as vscode.MarkdownString).value;
      if (registered()) assert.match(message, /rm/);
      assert.deepEqual(await approvalOf(tool, line), { by: 'person' });
    });
  }

  it("ls after alias ls='rm -rf': asks the person, naming what the alias runs", async () => {
    await service.send(owner, sessionId, { input: "alias ls='rm -rf'" });
    const p = await prepared(new SendTool(ctx), 'ls');
    assert.ok(p.confirmationMessages, 'asked');
    // The message is markdown: its backslash escapes removed, it reads as the person sees it.
    const message = (p.confirmationMessages.message as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
    assert.match(message, /`ls` is an alias for `rm -rf`/);
    if (registered()) assert.match(message, /denies `ls` \(`ls` is an alias for `rm -rf`/);
  });

  it("ls after alias ls='ls --color=auto' (a distribution's default .bashrc): judged as it expands, run without a click (1.139)", async () => {
    await service.send(owner, sessionId, { input: "alias ls='ls --color=auto' grep='grep --color=auto'" });
    const tool = new SendTool(ctx);
    const p = await prepared(tool, 'ls -la | grep x');
    if (registered()) {
      assert.equal(p.confirmationMessages, undefined, 'no confirmation: the alias runs ls, which the default rules approve');
      assert.deepEqual(await approvalOf(tool, 'ls -la | grep x'), {
        by: 'rule',
        rules: [
          { key: 'ls', source: 'default' },
          { key: 'grep', source: 'default' },
        ],
      });
    } else assert.ok(p.confirmationMessages, 'asked');
  });

  it("a DEBUG trap the person's ~/.bashrc sets (bash-preexec, starship) is theirs: git status runs without a click; a trap a command sets afterwards asks", async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    fs.writeFileSync(path.join(home, '.bashrc'), `trap ': "$_"' DEBUG\n`);
    sessionId = (await service.open(owner, { cwd: tmp, env: { HOME: home } })).sessionId;
    const tool = new SendTool(ctx);
    const p = await prepared(tool, 'git status');
    if (registered()) {
      assert.equal(p.confirmationMessages, undefined, "no confirmation: the trap is the person's own");
      assert.deepEqual(await approvalOf(tool, 'git status'), { by: 'rule', rules: [{ key: 'git status', source: 'settings' }] });
    }
    const asked = await prepared(tool, 'rm x');
    assert.ok(asked.confirmationMessages, 'asked');
    assert.match((asked.confirmationMessages.message as vscode.MarkdownString).value.replace(/\\(.)/g, '$1'), /set by your startup files/);
    await service.send(owner, sessionId, { input: "trap 'cd /' USR1" });
    const after = await prepared(new SendTool(ctx), 'git status');
    assert.ok(after.confirmationMessages, 'asked: a command set a trap');
    if (registered())
      assert.match(
        (after.confirmationMessages.message as vscode.MarkdownString).value.replace(/\\(.)/g, '$1'),
        /a command set traps or hooks after the session started/,
      );
  });

  it('input to a running python3 REPL: asks the person', async () => {
    await service.send(owner, sessionId, { input: 'python3 -q', timeoutMs: 5000 });
    await until('python3 reads its input', () => service.sendTarget(owner, sessionId).receiver.kind === 'program', 10_000);
    const p = await prepared(new SendTool(ctx), 'git status');
    assert.ok(p.confirmationMessages, 'asked');
    assert.match((p.confirmationMessages.message as vscode.MarkdownString).value, /running program|auto-approve settings/);
  });

  it('over MCP the same rules apply: git status by rule, a command no rule approves by the client allowed in dsh.mcp.autoApprove', async () => {
    const c = await connectClient('dsh-test-approved', await terminalEndpointValue());
    try {
      const open = await callTool<{ sessionId: string }>(c, 'dsh_terminal_open', { cwd: tmp });
      assert.equal(open.isError, false, open.first);
      const mcpSession = open.json.sessionId;
      const ruled = await callTool<{ approval: unknown }>(c, 'dsh_terminal_send', { sessionId: mcpSession, input: 'git status' });
      assert.equal(ruled.isError, false, ruled.first);
      assert.deepEqual(
        ruled.json.approval,
        registered() ? { by: 'rule', rules: [{ key: 'git status', source: 'settings' }] } : { by: 'client' },
      );
      const other = await callTool<{ approval: unknown }>(c, 'dsh_terminal_send', { sessionId: mcpSession, input: 'touch made-by-mcp' });
      assert.equal(other.isError, false, other.first);
      assert.deepEqual(other.json.approval, { by: 'client' });
      await callTool(c, 'dsh_terminal_close', { sessionId: mcpSession });
    } finally {
      await c.close().catch(() => undefined);
    }
  });
});
