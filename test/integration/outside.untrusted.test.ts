/**
 * Restricted Mode: navigation answers show nothing from outside the workspace (nothing can be
 * confirmed there), judged by real path, and say what they left out: a folder symlink in the
 * workspace leads to a TypeScript file outside it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import {
  assertLeftOut,
  assertNothingOutside,
  CALL_AT,
  makeOutsideProject,
  OUTSIDE_FN,
  OutsideAnswer,
  searchedSymbols,
  USE_OUTSIDE_AT,
  USES_OUTSIDE,
  whenReady,
} from '../helpers/host/outsideProject';

describe('in an untrusted workspace, navigation answers leave out locations outside the workspace', function () {
  this.timeout(180_000);
  let project: ReturnType<typeof makeOutsideProject>;
  let symbolProvider: vscode.Disposable | undefined;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode');
    await waitForTools(['dsh_symbols', 'dsh_lsp', 'dsh_call_hierarchy']);
    project = makeOutsideProject();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, USES_OUTSIDE));
    // TypeScript searches workspace symbols in Restricted Mode in VS Code 1.100, not in 1.139: a
    // symbol provider of another extension names the function outside, through the link, in both.
    const through = vscode.Uri.joinPath(folder, 'ts/dsh-outlink/secretLib.ts');
    symbolProvider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (query) =>
        OUTSIDE_FN.toLowerCase().includes(query.toLowerCase())
          ? [
              new vscode.SymbolInformation(
                OUTSIDE_FN,
                vscode.SymbolKind.Function,
                '',
                new vscode.Location(through, new vscode.Range(0, 16, 0, 40)),
              ),
            ]
          : [],
    });
  });
  after(() => {
    symbolProvider?.dispose();
    project.remove();
  });

  it('workspace symbols, a definition through the link, references and outgoing calls: nothing from outside, and what was left out is counted', async () => {
    const symbols = await searchedSymbols();
    assertLeftOut(symbols, project.outside);
    assert.match(symbols.outsideWorkspace!.why, /in Restricted Mode dsh_symbols shows nothing from outside the workspace/);
    // TypeScript of VS Code 1.100 answers these in Restricted Mode: what it finds outside is left out
    // and counted. That of 1.139 answers none there ("not available"), which shows nothing either.
    for (const [tool, input] of [
      ['dsh_lsp', { operation: 'goToDefinition', filePath: USES_OUTSIDE, ...CALL_AT }],
      ['dsh_lsp', { operation: 'findReferences', filePath: USES_OUTSIDE, ...CALL_AT }],
      ['dsh_call_hierarchy', { direction: 'outgoing', filePath: USES_OUTSIDE, ...USE_OUTSIDE_AT }],
    ] as const) {
      if (vscode.version.startsWith('1.100.')) {
        assertLeftOut((await whenReady(() => invokeTool<OutsideAnswer>(tool, input))).json, project.outside);
      } else {
        const answer = await invokeTool<OutsideAnswer>(tool, input).then(
          (r) => r.json,
          (e: Error) => (/not available or not ready/.test(e.message) ? {} : Promise.reject(e)),
        );
        assertNothingOutside(answer, project.outside);
      }
    }
  });
});
