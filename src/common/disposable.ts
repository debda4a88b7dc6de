/**
 * Something that frees what it holds when disposed; `dispose()` is idempotent. Structurally a
 * `vscode.Disposable`, so the plain-Node layers (terminal, navigation, tmux, MCP) hand theirs to
 * the extension without importing `vscode`.
 */
export interface Disposable {
  dispose(): void;
}
