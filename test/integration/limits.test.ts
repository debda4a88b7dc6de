/**
 * Limits per caller and confirmations that read as a person reads, through the terminal tool
 * classes' `prepareInvocation` and `invoke` in a real extension host (VS Code answers confirmations
 * "yes" in extension tests, so what `prepareInvocation` returns is checked). The tools run on a
 * service of their own (real node-pty, real bash) with dsh.terminal.maxSessionsPerOwner at 2.
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
import type { TerminalToolContext } from '../../src/vscode/tools/terminal/context';
import { OpenTool } from '../../src/vscode/tools/terminal/openTool';
import { RunTool } from '../../src/vscode/tools/terminal/runTool';
import { SendTool } from '../../src/vscode/tools/terminal/sendTool';
import { SILENT_LOG } from '../../src/common/log';

function text(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}

async function call<T>(tool: vscode.LanguageModelTool<T>, input: T): Promise<vscode.LanguageModelToolResult> {
  await tool.prepareInvocation?.({ input }, new vscode.CancellationTokenSource().token);
  const r = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  if (!r) throw new Error('the tool returned no result');
  return r;
}

describe('limits per caller in the host, and confirmations as a person reads them', function () {
  this.timeout(60_000);
  let service: TerminalService;
  let owner: Owner;
  let ctx: TerminalToolContext;
  let tmp: string;

  before(async () => {
    const config = resolveTerminalConfig({ maxSessionsPerOwner: 2 });
    service = new TerminalService(SILENT_LOG, () => config);
    service.registerBackend(new PtyBashBackend(await import('node-pty'), () => config, SILENT_LOG));
  });
  after(() => service.dispose());
  beforeEach(() => {
    owner = service.createOwner('limits test');
    ctx = { service, owner, unavailable: () => undefined };
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-limits-')));
  });
  afterEach(async () => {
    await Promise.allSettled(service.list(owner).map((s) => service.close(owner, s.sessionId, 'test done')));
    owner.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a 2 M-character input is refused before any confirmation is built, in under 50 ms', async () => {
    const sessionId = (await service.open(owner, { cwd: tmp })).sessionId;
    const huge = '\u200b'.repeat(2_000_000);
    for (const [tool, input] of [
      [new SendTool(ctx), { sessionId, input: huge }],
      [new RunTool(ctx), { command: huge }],
    ] as const) {
      const started = performance.now();
      const prepared = await tool.prepareInvocation({ input } as never);
      const took = performance.now() - started;
      assert.equal(prepared.confirmationMessages, undefined, `${tool.constructor.name} built a confirmation`);
      assert.ok(took < 50, `${tool.constructor.name}.prepareInvocation took ${took.toFixed(1)} ms`);
      await assert.rejects(
        Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined } as never, new vscode.CancellationTokenSource().token)),
        /at most 262144 bytes are typed into a terminal/,
      );
    }
  });

  it('a third session is refused, naming dsh.terminal.maxSessionsPerOwner and how many are open', async () => {
    const open = new OpenTool(ctx);
    await call(open, { cwd: tmp });
    await call(open, { cwd: tmp });
    await assert.rejects(call(open, { cwd: tmp }), /2 sessions open or opening, and dsh\.terminal\.maxSessionsPerOwner is 2/);
  });

  it('opens at once past the cap are refused at their confirmation, before anything awaits: nothing is asked, the run refuses at once', async () => {
    const open = new OpenTool(ctx);
    const token = new vscode.CancellationTokenSource().token;
    const inputs = Array.from({ length: 40 }, (_, i) => ({ cwd: tmp, name: `burst-${i}` }));
    // Every confirmation first, as concurrent MCP calls reach them: two are admitted, the rest refused.
    const prepared = inputs.map((input) => {
      const started = performance.now();
      const p = open.prepareInvocation({ input });
      return { p, started };
    });
    const shown = await Promise.all(prepared.map((x) => x.p));
    const asked = shown.filter((p) => p.confirmationMessages !== undefined).length;
    assert.equal(asked, 2, 'only the admitted opens are confirmed');
    assert.match(
      text(shown[39]?.invocationMessage),
      /refused: this caller has as many sessions as dsh\.terminal\.maxSessionsPerOwner allows/,
    );
    const runs = inputs.map(async (input) => {
      const started = performance.now();
      try {
        await open.invoke({ input, toolInvocationToken: undefined }, token);
        return { ok: true, took: performance.now() - started };
      } catch (e) {
        assert.match((e as Error).message, /maxSessionsPerOwner is 2/);
        return { ok: false, took: performance.now() - started };
      }
    });
    const results = await Promise.all(runs);
    assert.equal(results.filter((r) => r.ok).length, 2);
    const slowest = Math.max(...results.filter((r) => !r.ok).map((r) => r.took));
    assert.ok(slowest < 50, `a refusal took ${slowest.toFixed(1)} ms`);
  });

  it('the confirmation names a command in look-alike letters, a line wider than shown in columns, and a program by its executable', async () => {
    const sessionId = (await service.open(owner, { cwd: tmp })).sessionId;
    const send = new SendTool(ctx);
    const lookalike = text(
      (await send.prepareInvocation({ input: { sessionId, input: 'сat /etc/passwd' } })).confirmationMessages?.message,
    );
    assert.match(lookalike, /\*\*Not what it looks like\*\*: `сat`/);
    const wide = text(
      (await send.prepareInvocation({ input: { sessionId, input: `echo ${'ｆｕｌｌ'.repeat(15)}` } })).confirmationMessages?.message,
    );
    assert.match(wide, /Line 1 is 125 columns wide: scroll the block sideways/);
    await service.send(owner, sessionId, { input: `perl -e '$0 = "sudo -v"; my $l = <STDIN>;'`, timeoutMs: 10_000 });
    const perl = text((await send.prepareInvocation({ input: { sessionId, input: 'yes' } })).confirmationMessages?.message);
    assert.match(perl, /\*\*perl\*\* \(`[^`]*perl[^`]*`\), calling itself `sudo -v`/);
  });
});
