/**
 * Navigation answers leave out what lies outside the workspace, judged by real path: a folder
 * symlink in the workspace leads to a TypeScript file outside it. Workspace symbols, a definition
 * through the link, references to the function defined there and the calls into it show nothing
 * from outside without the user's confirmation, and say how many results they left out; the same
 * over MCP.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { callTool, connectClient, McpTestClient, terminalEndpointValue } from '../helpers/host/mcp';
import {
  assertLeftOut,
  CALL_AT,
  makeOutsideProject,
  OutsideAnswer,
  searchedSymbols,
  USE_OUTSIDE_AT,
  USES_OUTSIDE,
  whenReady,
} from '../helpers/host/outsideProject';

describe('navigation answers leave out locations outside the workspace', function () {
  this.timeout(180_000);
  let project: ReturnType<typeof makeOutsideProject>;

  before(async () => {
    await waitForTools(['dsh_symbols', 'dsh_lsp', 'dsh_call_hierarchy']);
    project = makeOutsideProject();
    await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, USES_OUTSIDE));
  });
  after(() => project.remove());

  it('workspace symbol search: no name from the file outside, and the answer says one was left out', async () => {
    assertLeftOut(await searchedSymbols(), project.outside);
  });

  it('a definition through the folder symlink: no location, left out and counted', async () => {
    const r = await whenReady(() =>
      invokeTool<OutsideAnswer>('dsh_lsp', { operation: 'goToDefinition', filePath: USES_OUTSIDE, ...CALL_AT }),
    );
    assertLeftOut(r.json, project.outside);
    assert.deepEqual(r.json.locations, []);
  });

  it('references to the function defined outside: the workspace uses only, the declaration outside left out', async () => {
    const r = await whenReady(() =>
      invokeTool<OutsideAnswer>('dsh_lsp', { operation: 'findReferences', filePath: USES_OUTSIDE, ...CALL_AT }),
    );
    assertLeftOut(r.json, project.outside);
    assert.deepEqual(r.json.locations!.map((l) => `${l.path}:${l.line}`).sort(), [`${USES_OUTSIDE}:1`, `${USES_OUTSIDE}:4`]);
  });

  it('outgoing calls: the callee outside is left out', async () => {
    const r = await whenReady(() =>
      invokeTool<OutsideAnswer>('dsh_call_hierarchy', { direction: 'outgoing', filePath: USES_OUTSIDE, ...USE_OUTSIDE_AT }),
    );
    assertLeftOut(r.json, project.outside);
    assert.deepEqual(r.json.root!.calls, []);
  });

  describe('over MCP', () => {
    let client: McpTestClient | undefined;
    after(async () => client?.close());

    it('workspace symbols and the definition through the link: the same answers, nothing from outside', async () => {
      client = await connectClient('dsh-test-unapproved', await terminalEndpointValue()); // navigation never asks
      await searchedSymbols();
      const symbols = await callTool<OutsideAnswer>(client, 'dsh_symbols', { query: 'dshOutsideSecretFunction' });
      assert.equal(symbols.isError, false, symbols.first);
      assertLeftOut(symbols.json, project.outside);
      const definition = await callTool<OutsideAnswer>(client, 'dsh_lsp', {
        operation: 'goToDefinition',
        filePath: USES_OUTSIDE,
        ...CALL_AT,
      });
      assert.equal(definition.isError, false, definition.first);
      assertLeftOut(definition.json, project.outside);
      assert.deepEqual(definition.json.locations, []);
    });
  });
});
