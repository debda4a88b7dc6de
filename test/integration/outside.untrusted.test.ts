/**
 * Restricted Mode: navigation answers show nothing from outside the workspace (nothing can be
 * confirmed there), judged by real path, and say what they left out: a folder symlink in the
 * workspace leads to a TypeScript file outside it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { assertLeftOut, CALL_AT, makeOutsideProject, OutsideAnswer, searchedSymbols, USE_OUTSIDE_AT, USES_OUTSIDE, whenReady } from '../helpers/host/outsideProject';

describe('in an untrusted workspace, navigation answers leave out locations outside the workspace', function () {
  this.timeout(180_000);
  let project: ReturnType<typeof makeOutsideProject>;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode');
    await waitForTools(['dsh_symbols', 'dsh_lsp', 'dsh_call_hierarchy']);
    project = makeOutsideProject();
    await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, USES_OUTSIDE));
  });
  after(() => project.remove());

  it('workspace symbols, a definition through the link, references and outgoing calls: nothing from outside, each says so', async () => {
    const symbols = await searchedSymbols();
    assertLeftOut(symbols, project.outside);
    assert.match(symbols.outsideWorkspace!.why, /in Restricted Mode dsh_symbols shows nothing from outside the workspace/);
    const definition = await whenReady(() => invokeTool<OutsideAnswer>('dsh_lsp', { operation: 'goToDefinition', filePath: USES_OUTSIDE, ...CALL_AT }));
    assertLeftOut(definition.json, project.outside);
    assert.deepEqual(definition.json.locations, []);
    const references = await whenReady(() => invokeTool<OutsideAnswer>('dsh_lsp', { operation: 'findReferences', filePath: USES_OUTSIDE, ...CALL_AT }));
    assertLeftOut(references.json, project.outside);
    const calls = await whenReady(() => invokeTool<OutsideAnswer>('dsh_call_hierarchy', { direction: 'outgoing', filePath: USES_OUTSIDE, ...USE_OUTSIDE_AT }));
    assertLeftOut(calls.json, project.outside);
  });
});
