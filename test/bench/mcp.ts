/**
 * In-host benchmark (run by scripts/bench-in-host.mjs mcp in a real extension host on
 * test/fixtures/workspace): the MCP round trip (SDK `Client` → shipped stdio bridge → the
 * window's socket → the same tool object) next to the same call through `vscode.lm.invokeTool`,
 * and their ratio, for `dsh_lsp` findReferences (`ts/l10/a.ts` 1:17, 3 references in 2 files) and
 * for a `true` sent to an open session. Medians over DSH_BENCH_RUNS runs (default 30), the two
 * paths alternating. The MCP client is named `dsh-test-approved`, which the launcher's profile
 * lists in `dsh.mcp.autoApprove`, so no dialog is involved.
 */
import * as vscode from 'vscode';
import { emit, errorText, Results, writeResults } from '../helpers/host/report';
import { compareMedians, RUNS } from './timing';
import { callTool, connectClient, terminalEndpointValue } from '../helpers/host/mcp';
import { until } from '../helpers/wait';

/** Medians of `viaMcp` and `viaTool` over RUNS alternating runs, printed with their ratio. */
async function compare(label: string, viaMcp: () => Promise<unknown>, viaTool: () => PromiseLike<unknown>): Promise<void> {
  const { a, b } = await compareMedians(viaMcp, viaTool);
  emit({ text: `${label}, ${RUNS} runs` });
  emit({ text: `  via MCP (bridge + socket)      median ${a.toFixed(2)} ms` });
  emit({ text: `  via vscode.lm.invokeTool       median ${b.toFixed(2)} ms` });
  emit({ text: `  ratio MCP / invokeTool ${(a / b).toFixed(2)} (difference ${(a - b).toFixed(2)} ms)`, outcome: 'passed' });
}

export async function run(): Promise<void> {
  const results: Results = { passed: 0, failed: 0, failures: [] };
  let close: (() => Promise<void>) | undefined;
  try {
    const ext = vscode.extensions.getExtension('dsh.dsh-bridge')!;
    await ext.activate();
    const c = await connectClient('dsh-test-approved', await terminalEndpointValue());
    close = () => c.close();
    const invoke = (name: string, input: object) => vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    const must = async <R extends { isError: boolean; first: string }>(p: Promise<R>): Promise<R> => {
      const r = await p;
      if (r.isError) throw new Error(r.first);
      return r;
    };

    const lsp = { operation: 'findReferences', filePath: 'ts/l10/a.ts', line: 1, column: 17 };
    // TypeScript loads the project on the first query.
    await until(
      'TypeScript to answer dsh_lsp',
      () =>
        Promise.resolve(invoke('dsh_lsp', lsp)).then(
          () => true,
          (e: Error) => (/not ready/.test(e.message) ? false : Promise.reject(e)),
        ),
      90_000,
      0,
    );
    await compare(
      'dsh_lsp findReferences ts/l10/a.ts:1:17',
      () => must(callTool(c, 'dsh_lsp', lsp)),
      () => invoke('dsh_lsp', lsp),
    );
    results.passed++;

    const mine = await must(callTool<{ sessionId: string }>(c, 'dsh_terminal_open', { name: 'bench' }));
    const tools = JSON.parse(((await invoke('dsh_terminal_open', { name: 'bench' })).content[0] as vscode.LanguageModelTextPart).value) as {
      sessionId: string;
    };
    await compare(
      'dsh_terminal_send "true" (returns at the prompt)',
      () => must(callTool(c, 'dsh_terminal_send', { sessionId: mine.json.sessionId, input: 'true' })),
      () => invoke('dsh_terminal_send', { sessionId: tools.sessionId, input: 'true' }),
    );
    results.passed++;
    await callTool(c, 'dsh_terminal_close', { sessionId: mine.json.sessionId });
    await invoke('dsh_terminal_close', { sessionId: tools.sessionId });
  } catch (err) {
    results.failed++;
    results.failures.push({ title: 'bench-mcp', error: errorText(err) });
    emit({ text: `✘ bench-mcp\n${errorText(err)}`, outcome: 'failed' });
  } finally {
    await close?.().catch(() => undefined);
  }
  writeResults(results);
  if (results.failed > 0) throw new Error('bench-mcp failed');
}
