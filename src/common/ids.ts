/**
 * The ids the extension shares with `package.json` `contributes`: command ids, setting keys and the
 * MCP server definition provider id. Code refers to them only through these constants; a unit test
 * checks this module against `package.json` in both directions (every contributed id is here, every
 * id here is contributed). Tool names are not here: each lives in its tool class (`static
 * toolName`), listed once in src/vscode/tools/registry.ts.
 *
 * Plain data, no `vscode` import: plain-Node tests and every layer can load it.
 */

/** Command ids (`contributes.commands[].command`). */
export const COMMAND = {
  openAgentTerminal: 'dsh.openAgentTerminal',
  listAgentTerminals: 'dsh.listAgentTerminals',
  showCommandHistory: 'dsh.showCommandHistory',
  closeAgentTerminal: 'dsh.closeAgentTerminal',
  showAgentViewAtCursor: 'dsh.showAgentViewAtCursor',
  showEffectiveConfiguration: 'dsh.showEffectiveConfiguration',
  takeOverAgentTerminal: 'dsh.takeOverAgentTerminal',
  handBackAgentTerminal: 'dsh.handBackAgentTerminal',
  connectAgent: 'dsh.connectAgent',
  keptProcesses: 'dsh.terminal.keptProcesses',
  allowSandboxRepository: 'dsh.sandbox.allowRepository',
} as const;

/** Section of the terminal settings: each `TerminalConfig` key `k` is the setting `dsh.terminal.<k>`. */
export const TERMINAL_SETTINGS_SECTION = 'dsh.terminal';

/** Setting keys (`contributes.configuration.properties`), in full. */
export const SETTING = {
  terminalShell: 'dsh.terminal.shell',
  terminalEnv: 'dsh.terminal.env',
  terminalPollIntervalMs: 'dsh.terminal.pollIntervalMs',
  terminalPromptGraceMs: 'dsh.terminal.promptGraceMs',
  terminalProbeStartDelayMs: 'dsh.terminal.probeStartDelayMs',
  terminalQuietThresholdMs: 'dsh.terminal.quietThresholdMs',
  terminalDefaultTimeoutMs: 'dsh.terminal.defaultTimeoutMs',
  terminalOpenTimeoutMs: 'dsh.terminal.openTimeoutMs',
  terminalRetainedLines: 'dsh.terminal.retainedLines',
  terminalRetainedBytes: 'dsh.terminal.retainedBytes',
  terminalMaxReadBytes: 'dsh.terminal.maxReadBytes',
  terminalSandbox: 'dsh.terminal.sandbox',
  terminalHistorySize: 'dsh.terminal.historySize',
  terminalMaxSessionsPerOwner: 'dsh.terminal.maxSessionsPerOwner',
  terminalRedactSecrets: 'dsh.terminal.redactSecrets',
  terminalSecretPatterns: 'dsh.terminal.secretPatterns',
  tmuxStatusBar: 'dsh.tmux.statusBar',
  markdownEditorProviders: 'dsh.markdown.editorProviders',
  markdownAliasOrder: 'dsh.markdown.aliasOrder',
  lspServers: 'dsh.lsp.servers',
  mcpEnabled: 'dsh.mcp.enabled',
  mcpAutoApprove: 'dsh.mcp.autoApprove',
} as const;

/** Id of the MCP server definition provider (`contributes.mcpServerDefinitionProviders[].id`). */
export const MCP_SERVER_DEFINITION_PROVIDER = 'dsh.mcp';
