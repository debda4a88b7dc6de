/**
 * In-host benchmark (run by scripts/bench-in-host.mjs lsp in a real extension host on
 * test/fixtures/workspace): median time of `dsh_lsp` findReferences through
 * `vscode.lm.invokeTool` next to a direct `vscode.executeReferenceProvider` at the same position,
 * and their ratio (goal: <= 1.2). Positions: `ts/l09/decl.ts` 1:17 (150 references in 3
 * files) and `ts/l10/a.ts` 1:17 (3 references in 2 files). Then `dsh_symbols` by name next to a
 * direct `vscode.executeWorkspaceSymbolProvider` on the same query, and their ratio. Prints
 * through the launcher's stream and writes a results file (1 passed per measurement that ran).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForTools } from '../helpers/host/lm';
import { emit, errorText, Results, writeResults } from '../helpers/host/report';
import { compareMedians, median, RUNS, time } from './timing';

/** `f()`, asked again while it fails with "not available or not ready" (a language server loading on a busy machine), up to 180 s. */
async function whenReady<T>(f: () => PromiseLike<T>): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      return await f();
    } catch (e) {
      if (!/not available or not ready/.test(String(e)) || Date.now() > deadline) throw e;
    }
  }
}

export async function run(): Promise<void> {
  const results: Results = { passed: 0, failed: 0, failures: [] };
  try {
    await waitForTools(['dsh_lsp'], 20_000);
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // The floor: a tool that does nothing but answer, through the same invokeTool path.
    await waitForTools(['dsh_terminal_list'], 20_000);
    const floor: number[] = [];
    const floorMedian = () => median(floor);
    for (let i = 0; i < RUNS; i++)
      floor.push(await time(() => vscode.lm.invokeTool('dsh_terminal_list', { input: {}, toolInvocationToken: undefined })));
    emit({ text: `vscode.lm.invokeTool floor (dsh_terminal_list, no work): median ${median(floor).toFixed(2)} ms` });
    for (const [rel, line, column] of [
      ['ts/l09/decl.ts', 1, 17],
      ['ts/l10/a.ts', 1, 17],
    ] as const) {
      const uri = vscode.Uri.file(path.join(root, rel));
      const position = new vscode.Position(line - 1, column - 1);
      const input = { operation: 'findReferences', filePath: rel, line, column, limit: 500 };
      const viaTool = () => vscode.lm.invokeTool('dsh_lsp', { input, toolInvocationToken: undefined });
      const direct = () => vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, position);
      const first = await time(() => whenReady(viaTool)); // opens the document and waits for the language server
      const warm = JSON.parse(((await viaTool()).content[0] as vscode.LanguageModelTextPart).value) as { total: number };
      const count = (await direct()).length;
      const { a: mt, b: mr } = await compareMedians(viaTool, direct);
      emit({
        text: `${rel}:${line}:${column} findReferences (${warm.total} via dsh_lsp, ${count} direct), ${RUNS} runs, first call ${first.toFixed(1)} ms`,
      });
      emit({ text: `  dsh_lsp via vscode.lm.invokeTool   median ${mt.toFixed(2)} ms` });
      emit({ text: `  executeReferenceProvider direct    median ${mr.toFixed(2)} ms` });
      emit({
        text: `  ratio ${(mt / mr).toFixed(2)} (goal <= 1.2); without the invokeTool floor ${((mt - floorMedian()) / mr).toFixed(2)}`,
        outcome: 'passed',
      });
      results.passed++;
    }
    // dsh_symbols by name against the provider command it is built on, same query.
    await whenReady(() => vscode.lm.invokeTool('dsh_symbols', { input: { filePath: 'ts/calls/main.ts' }, toolInvocationToken: undefined })); // the project is loaded
    for (const query of ['computeTotalPrice', 'helper']) {
      const viaTool = () => vscode.lm.invokeTool('dsh_symbols', { input: { query, limit: 500 }, toolInvocationToken: undefined });
      const direct = () => vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
      const warm = JSON.parse(((await viaTool()).content[0] as vscode.LanguageModelTextPart).value) as { total: number };
      const count = (await direct()).length;
      const { a: mt, b: mr } = await compareMedians(viaTool, direct);
      emit({ text: `dsh_symbols query '${query}' (${warm.total} via dsh_symbols, ${count} direct), ${RUNS} runs` });
      emit({ text: `  dsh_symbols via vscode.lm.invokeTool          median ${mt.toFixed(2)} ms` });
      emit({ text: `  executeWorkspaceSymbolProvider direct         median ${mr.toFixed(2)} ms` });
      emit({
        text: `  ratio ${(mt / mr).toFixed(2)}; without the invokeTool floor ${((mt - floorMedian()) / mr).toFixed(2)}`,
        outcome: 'passed',
      });
      results.passed++;
    }
  } catch (err) {
    results.failed++;
    results.failures.push({ title: 'bench-lsp', error: errorText(err) });
    emit({ text: `✘ bench-lsp\n${errorText(err)}`, outcome: 'failed' });
  }
  writeResults(results);
  if (results.failed > 0) throw new Error('bench-lsp failed');
}
