/**
 * What the stdio provider needs from outside (plain Node, no `vscode` import): the JSON-RPC
 * protocol module and a log sink.
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';

/**
 * The part of `vscode-languageserver-protocol/node` (equally `vscode-languageclient/node`, which
 * re-exports it) the stdio provider uses. The VS Code layer passes `vscode-languageclient/node`,
 * unit tests `vscode-languageserver-protocol/node` itself.
 */
export type ProtocolModule = Pick<
  typeof Protocol,
  | 'createProtocolConnection'
  | 'StreamMessageReader'
  | 'StreamMessageWriter'
  | 'CancellationTokenSource'
  | 'InitializeRequest'
  | 'InitializedNotification'
  | 'ShutdownRequest'
  | 'ExitNotification'
  | 'DidOpenTextDocumentNotification'
  | 'DidCloseTextDocumentNotification'
  | 'DefinitionRequest'
  | 'ReferencesRequest'
  | 'ImplementationRequest'
  | 'HoverRequest'
  | 'WorkDoneProgress'
  | 'WorkDoneProgressCreateRequest'
>;
