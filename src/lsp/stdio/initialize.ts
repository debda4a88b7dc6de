/**
 * The `initialize` request DSH Bridge sends a language server (plain Node): the workspace folder
 * as root, and the client capabilities it uses (UTF-16 positions, work-done progress, location
 * links, markdown hovers, hierarchical symbols, call hierarchy, pull and pushed diagnostics).
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';

/**
 * The params of `initialize`.
 * @param workspaceFolder the folder's `file:` URI and name.
 * @param rootPath the folder's file-system path.
 * @param initializationOptions passed as they are (from the server's configuration entry).
 */
export function initializeParams(
  workspaceFolder: { uri: string; name: string },
  rootPath: string,
  initializationOptions: unknown,
): Protocol.InitializeParams {
  return {
    processId: process.pid,
    clientInfo: { name: 'DSH Bridge' },
    rootUri: workspaceFolder.uri,
    rootPath,
    workspaceFolders: [workspaceFolder],
    initializationOptions,
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      window: { workDoneProgress: true },
      workspace: { workspaceFolders: true, configuration: true, symbol: { dynamicRegistration: false } },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        definition: { linkSupport: true },
        implementation: { linkSupport: true },
        references: {},
        hover: { contentFormat: ['markdown', 'plaintext'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        callHierarchy: { dynamicRegistration: false },
        diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
        publishDiagnostics: { relatedInformation: false },
      },
    },
  };
}
