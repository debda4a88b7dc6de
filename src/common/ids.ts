/**
 * The ids the extension shares with `package.json` `contributes`: Language Model Tool names,
 * command ids, setting keys and the MCP server definition provider id. Code refers to them only
 * through these constants; a unit test checks this module against `package.json` in both
 * directions (every contributed id is here, every id here is contributed).
 *
 * Plain data, no `vscode` import: plain-Node tests and every layer can load it.
 */

/** Language Model Tool names (`contributes.languageModelTools[].name`), also the MCP tool names. */
export const TOOL = {
  run: 'dsh_run',
  terminalOpen: 'dsh_terminal_open',
  terminalSend: 'dsh_terminal_send',
  terminalRead: 'dsh_terminal_read',
  terminalHistory: 'dsh_terminal_history',
  terminalOutput: 'dsh_terminal_output',
  terminalWait: 'dsh_terminal_wait',
  terminalList: 'dsh_terminal_list',
  terminalClose: 'dsh_terminal_close',
  terminalSignal: 'dsh_terminal_signal',
  tmuxContext: 'dsh_tmux_context',
  lsp: 'dsh_lsp',
  symbols: 'dsh_symbols',
  diagnostics: 'dsh_diagnostics',
  callHierarchy: 'dsh_call_hierarchy',
} as const;

/** A contributed tool name. */
export type ToolName = (typeof TOOL)[keyof typeof TOOL];

/**
 * The tools that act on terminal sessions (one instance per owner: the Language Model Tools' owner
 * and each MCP connection's), in the order they are created.
 */
export const TERMINAL_TOOLS = [
  TOOL.terminalOpen,
  TOOL.terminalSend,
  TOOL.terminalRead,
  TOOL.terminalHistory,
  TOOL.terminalList,
  TOOL.terminalClose,
  TOOL.terminalSignal,
  TOOL.terminalOutput,
  TOOL.terminalWait,
  TOOL.run,
] as const;

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
  terminalHistorySize: 'dsh.terminal.historySize',
  tmuxStatusBar: 'dsh.tmux.statusBar',
  markdownEditorProviders: 'dsh.markdown.editorProviders',
  markdownAliasOrder: 'dsh.markdown.aliasOrder',
  lspServers: 'dsh.lsp.servers',
  mcpEnabled: 'dsh.mcp.enabled',
  mcpAutoApprove: 'dsh.mcp.autoApprove',
} as const;

/** Id of the MCP server definition provider (`contributes.mcpServerDefinitionProviders[].id`). */
export const MCP_SERVER_DEFINITION_PROVIDER = 'dsh.mcp';
