/**
 * What is typed is what was confirmed, in a real extension host: the terminal tool classes'
 * `prepareInvocation` shows the exact text in full (its size when long) or the keys by name, the
 * session name escaped for markdown, the shell's current folder and the program that will read the
 * input; a call whose receiver changed after its confirmation types nothing. VS Code answers
 * confirmations "yes" without showing them in extension tests, so the returned messages are checked.
 * The tools run on a service of their own (real node-pty, real bash) inside the host: the API
 * object other extensions get is a facade that hands out no service or owner.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveTerminalConfig } from '../../src/terminal/config';
import { PtyBashBackend } from '../../src/terminal/bash/ptyBash';
import { TerminalService } from '../../src/terminal/service';
import { Owner } from '../../src/terminal/owner';
import { CloseTool } from '../../src/vscode/tools/terminal/closeTool';
import type { TerminalToolContext } from '../../src/vscode/tools/terminal/context';
import { OpenTool } from '../../src/vscode/tools/terminal/openTool';
import { RunTool } from '../../src/vscode/tools/terminal/runTool';
import { SendTool } from '../../src/vscode/tools/terminal/sendTool';
import { SignalTool } from '../../src/vscode/tools/terminal/signalTool';
import { sleep, until } from '../helpers/wait';
import { SILENT_LOG } from '../../src/common/log';

/** The markdown text of a confirmation message. */
function text(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}

async function prepare<T>(
  tool: {
    prepareInvocation(
      o: vscode.LanguageModelToolInvocationPrepareOptions<T>,
    ): vscode.PreparedToolInvocation | undefined | null | Thenable<unknown>;
  },
  input: T,
) {
  return (await tool.prepareInvocation({ input })) as vscode.PreparedToolInvocation;
}

/** As VS Code calls a tool: its prepareInvocation (the confirmation, answered yes), then its invoke. */
async function confirmedInvoke<T>(tool: vscode.LanguageModelTool<T>, input: T): Promise<vscode.LanguageModelToolResult> {
  await tool.prepareInvocation?.({ input }, new vscode.CancellationTokenSource().token);
  return invoke(tool, input);
}

function invoke<T>(tool: vscode.LanguageModelTool<T>, input: T): Promise<vscode.LanguageModelToolResult> {
  return Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token)).then((r) => {
    if (!r) throw new Error('the tool returned no result');
    return r;
  });
}

describe('confirmations show what will really happen', function () {
  this.timeout(60_000);
  let service: TerminalService;
  let owner: Owner;
  let ctx: TerminalToolContext;
  let tmp: string;
  let sessionId: string;
  const hostile = '*bold* [click](https://example.com/x) `tick` <img src=x>';

  before(async () => {
    const log = SILENT_LOG;
    service = new TerminalService(log);
    // node-pty stays external in the test bundle: it loads from the repository's node_modules.
    service.registerBackend(new PtyBashBackend(await import('node-pty'), () => resolveTerminalConfig({}), log));
  });
  after(() => service.dispose());
  beforeEach(async () => {
    owner = service.createOwner('confirmation test');
    ctx = { service, owner, unavailable: () => undefined };
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-confirm-')));
    sessionId = (await service.open(owner, { name: hostile, cwd: tmp })).sessionId;
  });
  afterEach(async () => {
    await Promise.allSettled(service.list(owner).map((s) => service.close(owner, s.sessionId, 'test done')));
    owner.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the session name is escaped in every confirmation and invocation message', async () => {
    const escaped = '\\*bold\\* \\[click\\]\\(https\\:\\/\\/example\\.com\\/x\\) \\`tick\\` \\<img src\\=x\\>';
    for (const [tool, input] of [
      [new SendTool(ctx), { sessionId, input: 'echo hi' }],
      [new SignalTool(ctx), { sessionId, signal: 'SIGINT' }],
      [new CloseTool(ctx), { sessionId }],
    ] as const) {
      const prepared = await prepare(tool as SendTool, input as never);
      const message = text(prepared.confirmationMessages?.message);
      assert.ok(message.includes(escaped), `${tool.constructor.name}: ${message}`);
      assert.ok(!message.includes('[click](https'), `${tool.constructor.name} renders a link: ${message}`);
    }
    const open = await new OpenTool(ctx).prepareInvocation({ input: { name: hostile } });
    assert.ok(text(open.invocationMessage).includes(escaped), text(open.invocationMessage));
    assert.ok(text(open.confirmationMessages?.message).includes(escaped));
  });

  it('the folder is where the shell is now, read at confirmation time (after cd)', async () => {
    fs.mkdirSync(path.join(tmp, 'deeper'));
    await service.send(owner, sessionId, { input: 'cd deeper' });
    const message = text((await prepare(new SendTool(ctx), { sessionId, input: 'ls' })).confirmationMessages?.message);
    assert.ok(message.includes(`in \`${path.join(tmp, 'deeper')}\``), message);
    assert.match(message, /bash at its prompt/);
  });

  it('a DEBUG trap set by an earlier command: the confirmation says the folder cannot be known, and the command indeed runs elsewhere', async () => {
    await service.send(owner, sessionId, { input: "trap '[[ $BASH_COMMAND == pwd* ]] && cd /tmp' DEBUG" });
    const tool = new SendTool(ctx);
    const input = { sessionId, input: 'pwd' };
    const message = text((await prepare(tool, input)).confirmationMessages?.message);
    assert.ok(message.includes(`in \`${tmp}\` at its prompt, but this shell has traps`), message);
    assert.match(message, /the folder this runs in cannot be known/);
    const result = await invoke(tool, input);
    const output = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
    assert.match(output, /^\/tmp$/m, output);
  });

  it('the program that will read the input is named: python3 waiting in input()', async () => {
    const r = await service.send(owner, sessionId, { input: `python3 -c "print('got', input('Name: '))"` });
    assert.equal(r.waiting, 'program-input');
    const tool = new SendTool(ctx);
    const prepared = await prepare(tool, { sessionId, input: 'Bob' });
    const message = text(prepared.confirmationMessages?.message);
    assert.match(message, /python3 -c .*waiting for input/, message);
    assert.match(prepared.confirmationMessages?.title ?? '', /Type into a program/);
    const answered = await invoke(tool, { sessionId, input: 'Bob' });
    assert.match(JSON.stringify(answered.content), /got Bob/);
  });

  it('long text is shown in full with its size, never cut', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `echo line-${i + 1}`);
    const input = lines.join('\n');
    const message = text((await prepare(new SendTool(ctx), { sessionId, input })).confirmationMessages?.message);
    assert.ok(message.includes(input), 'the whole text is in the confirmation');
    assert.ok(message.includes('echo line-300'));
    assert.match(message, new RegExp(`300 lines, ${Buffer.byteLength(input)} bytes, shown in full`));
  });

  it('keys are shown by name; text with a control character gets no confirmation and is refused naming it', async () => {
    const keys = await prepare(new SendTool(ctx), { sessionId, keys: ['Up', 'Ctrl-D', '`'] });
    assert.match(text(keys.confirmationMessages?.message), /Press keys: `Up` `Ctrl-D` ``"`"``/);
    const marker = path.join(tmp, 'x');
    const hidden = { sessionId, input: `# touch ${marker}\u0001\u0004` };
    assert.equal((await prepare(new SendTool(ctx), hidden)).confirmationMessages, undefined);
    await assert.rejects(invoke(new SendTool(ctx), hidden), /U\+0001.*keys/);
    await assert.rejects(invoke(new SendTool(ctx), { sessionId, input: 'echo \u202Eexe.txt' }), /U\+202E/);
    // Asserts that something does NOT happen: nothing may run in the moment after the refusals.
    await sleep(300);
    assert.equal(fs.existsSync(marker), false);
  });

  it('keys that would run a line recalled from history at the prompt: the confirmation says the send will be refused, and nothing runs', async () => {
    const marker = path.join(tmp, 'HISTORY-RAN');
    await service.send(owner, sessionId, { input: `touch ${marker}` });
    fs.rmSync(marker);
    const input = { sessionId, keys: ['Up', 'Enter'] };
    const tool = new SendTool(ctx);
    assert.match(
      text((await prepare(tool, input)).confirmationMessages?.message),
      /\*\*Refused when it runs, nothing is pressed\*\*: `Up` puts a line from the shell's history/,
    );
    await assert.rejects(invoke(tool, input), /nothing was pressed.*input/);
    // Asserts that something does NOT happen: nothing may run in the moment after the refusal.
    await sleep(300);
    assert.equal(fs.existsSync(marker), false, 'the recalled line ran');
  });

  it('a call whose receiver changed after the confirmation types nothing', async () => {
    await service.send(owner, sessionId, { input: `python3 -c "input('Answer: ')"` });
    const marker = path.join(tmp, 'meant-for-python');
    const input = { sessionId, input: `touch ${marker}` };
    // One tool object, as VS Code registers it: its prepareInvocation, then its invoke.
    const tool = new SendTool(ctx);
    assert.match(text((await prepare(tool, input)).confirmationMessages?.message), /python3/);
    service.signal(owner, sessionId, 'SIGINT');
    await until('the shell at its prompt', () => service.sendTarget(owner, sessionId).receiver.kind === 'shell-prompt');
    await assert.rejects(invoke(tool, input), /nothing was typed.*the shell at its prompt/);
    // Asserts that something does NOT happen: nothing may run in the moment after the refusal.
    await sleep(300);
    assert.equal(fs.existsSync(marker), false, 'the answer for python3 ran as a shell command');
  });

  it('a call whose confirmation is not on record (never shown, or forgotten) does nothing', async () => {
    const marker = path.join(tmp, 'unconfirmed');
    const cases: Array<[vscode.LanguageModelTool<never>, object, RegExp]> = [
      [
        new SendTool(ctx),
        { sessionId, input: `touch ${marker}` },
        /: nothing was typed: what this call's confirmation showed is not on record or cannot be told apart .*Call dsh_terminal_send again$/,
      ],
      [new RunTool(ctx), { command: `touch ${marker}` }, /: nothing was run: .*Call dsh_run again$/],
      [new SignalTool(ctx), { sessionId, signal: 'SIGKILL' }, /: nothing was delivered: .*Call dsh_terminal_signal again$/],
      [new OpenTool(ctx), { cwd: tmp }, /: nothing was opened: .*Call dsh_terminal_open again$/],
    ];
    const before = service.list(owner).length;
    for (const [tool, input, refusal] of cases) await assert.rejects(invoke(tool, input as never), refusal);
    await sleep(300);
    assert.equal(fs.existsSync(marker), false, 'an unconfirmed command ran');
    assert.equal(service.list(owner).length, before, 'an unconfirmed session was opened');
    assert.equal((await service.send(owner, sessionId, { input: 'echo alive' })).output, 'alive', 'an unconfirmed SIGKILL was delivered');
  });

  it('a folder reached through a symbolic link: the open confirmation names where it leads, the session starts there, a link swapped meanwhile opens nothing', async () => {
    const project = path.join(tmp, 'project');
    fs.mkdirSync(project);
    const link = path.join(tmp, 'docs');
    fs.symlinkSync('/', link);
    const tool = new OpenTool(ctx);
    const message = text((await tool.prepareInvocation({ input: { cwd: link } })).confirmationMessages?.message);
    assert.ok(message.includes(`in \`/\` (reached through \`${link}\`)`), message);
    const opened = JSON.parse(((await invoke(tool, { cwd: link })).content[0] as vscode.LanguageModelTextPart).value) as {
      sessionId: string;
      cwd: string;
    };
    assert.equal((await service.send(owner, opened.sessionId, { input: 'pwd' })).output, '/');
    // Confirmed while the link leads to the project, swapped to / before the call runs.
    fs.rmSync(link);
    fs.symlinkSync(project, link);
    assert.ok(
      text((await tool.prepareInvocation({ input: { cwd: link } })).confirmationMessages?.message).includes(
        `in \`${project}\` (reached through`,
      ),
    );
    fs.rmSync(link);
    fs.symlinkSync('/', link);
    const before = service.list(owner).length;
    await assert.rejects(
      invoke(tool, { cwd: link }),
      /: no session was opened: the confirmation showed ".*docs" leading to ".*project", but now it leads to "\/"/,
    );
    assert.equal(service.list(owner).length, before);
  });

  it('a relative cwd gets no confirmation and opens nothing, saying it must be absolute', async () => {
    const tool = new OpenTool(ctx);
    for (const cwd of ['.', 'src/..']) {
      const prepared = await tool.prepareInvocation({ input: { cwd } });
      assert.equal(prepared.confirmationMessages, undefined);
      await assert.rejects(invoke(tool, { cwd }), /cwd ".*" is not an absolute path; give an absolute path to a folder, or omit cwd/);
    }
  });

  it('a signal whose program ended after the confirmation is not delivered to the shell', async () => {
    const shell = Number(/\d+/.exec((await service.send(owner, sessionId, { input: 'echo $$' })).output)![0]);
    void service.send(owner, sessionId, { input: 'sleep 30' }).catch(() => undefined);
    await until('sleep in the foreground', () => service.sendTarget(owner, sessionId).receiver.kind === 'program');
    const input = { sessionId, signal: 'SIGKILL' };
    const tool = new SignalTool(ctx);
    assert.match(text((await prepare(tool, input)).confirmationMessages?.message), /`sleep 30`/);
    service.signal(owner, sessionId, 'SIGINT'); // the program ends before the person answers
    await until('the shell at its prompt', () => service.sendTarget(owner, sessionId).receiver.kind === 'shell-prompt');
    await assert.rejects(
      invoke(tool, input),
      /nothing was delivered: the confirmation named a program in process group \d+ \(pid \d+\), but now the shell at its prompt/,
    );
    await sleep(300);
    assert.ok(fs.existsSync(`/proc/${shell}`), 'SIGKILL confirmed for sleep killed the shell');
  });

  it('dsh_run: the same rules and the same confirmation as a send', async () => {
    const run = new RunTool(ctx);
    assert.equal((await prepare(run, { command: 'echo \u202Eabc' })).confirmationMessages, undefined);
    await assert.rejects(invoke(run, { command: 'echo a\u0003' }), /command contains U\+0003.*dsh_terminal_send with keys/);
    assert.match(text((await prepare(run, { command: 'pwd' })).confirmationMessages?.message), /bash at its prompt\*\* in a new session/);
    await confirmedInvoke(run, { command: `cd ${tmp}` });
    const message = text((await prepare(run, { command: 'pwd' })).confirmationMessages?.message);
    assert.ok(message.includes(`in \`${tmp}\``), message);
    assert.match(message, /bash at its prompt/);
  });

  it('dsh_run: a command confirmed for a shell that exited before the call runs nowhere else', async () => {
    const run = new RunTool(ctx);
    await confirmedInvoke(run, { command: `cd ${tmp}` });
    const marker = path.join(tmp, 'ran-in');
    const command = `pwd > ${marker}`;
    const message = text((await prepare(run, { command })).confirmationMessages?.message);
    assert.ok(message.includes(`in \`${tmp}\``), message);
    // The shell exits while the person reads the confirmation (TMOUT, a job killing it, ...).
    const shell = service.list(owner).find((s) => s.name === RunTool.sessionName)!;
    await service.send(owner, shell.sessionId, { input: 'exit' });
    await until(
      'the dsh_run shell exited',
      () => service.list(owner).find((s) => s.sessionId === shell.sessionId)?.sessionStatus.kind === 'exited',
    );
    await assert.rejects(invoke(run, { command }), /nothing was run: the confirmation named the shell of session .* which has exited/);
    // Asserts that something does NOT happen: nothing may run in the moment after the refusal.
    await sleep(300);
    assert.equal(
      fs.existsSync(marker),
      false,
      `the command ran in a new shell, in ${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`,
    );
  });

  it('dsh_run: a command confirmed for a new session is not typed into a session opened since', async () => {
    const run = new RunTool(ctx);
    const marker = path.join(tmp, 'ran-in');
    const command = `pwd > ${marker}`;
    assert.match(text((await prepare(run, { command })).confirmationMessages?.message), /in a new session/);
    await confirmedInvoke(run, { command: `cd ${tmp}` }); // another call opened the session and moved it
    await assert.rejects(invoke(run, { command }), /nothing was run: the confirmation named a new session/);
    await sleep(300);
    assert.equal(fs.existsSync(marker), false, 'the command ran in the session another call opened');
  });
});
