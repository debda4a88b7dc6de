/**
 * The MCP surface of the extension: the window's endpoint (./mcpEndpoint.ts), the command "DSH:
 * Connect an Agent (MCP)" (./mcpConnect.ts) and, where VS Code offers it, the MCP server
 * definition provider. Every connection gets its own instance of every tool, acting for its own
 * owner; the navigation tools and dsh_tmux_context are the same classes the Language Model Tools
 * use, one instance per connection too.
 */
import * as vscode from 'vscode';
import { TOOL } from '../common/ids';
import type { Owner } from '../terminal/service';
import { detectTmuxPane } from '../tmux/detect';
import type { AgentOwners } from './agentOwners';
import { registerConnectCommand } from './mcpConnect';
import { McpEndpoint, contributedTools, registerMcpDefinitionProvider } from './mcpEndpoint';
import type { TerminalToolContext } from './tools/terminal/context';
import { createTerminalTools } from './tools/terminal/tools';
import { TmuxContextTool } from './tmux';

/** What the MCP surface needs from the composition root. */
export interface McpDeps {
  /** The terminal tools' context; each connection replaces its owner with its own. */
  terminal: TerminalToolContext;
  /** Fresh instances of the navigation tools by name (one set per connection). */
  navigationTools: () => Map<string, vscode.LanguageModelTool<object>>;
  clients: AgentOwners;
  log: vscode.LogOutputChannel;
}

/** The MCP surface as the composition root holds it. */
export interface McpSurface extends vscode.Disposable {
  /** Closes every connection and removes the endpoint's socket; resolves when it is gone (for `deactivate`). */
  shutdown(): Promise<void>;
}

/** Registers the MCP surface; everything is disposed with the returned Disposable. */
export function registerMcp(context: vscode.ExtensionContext, deps: McpDeps): McpSurface {
  const { terminal, navigationTools, clients, log } = deps;
  const toolsFor = (owner: Owner) => {
    const tools = createTerminalTools({ ...terminal, owner });
    for (const [name, tool] of navigationTools()) tools.set(name, tool);
    tools.set(TOOL.tmuxContext, new TmuxContextTool(() => detectTmuxPane({ warn: (m) => log.warn(`tmux: ${m}`) }), log));
    return tools;
  };
  // Every contributed tool must be served: a tool added to package.json without an MCP instance is a bug.
  const missing = contributedTools(context).map((t) => t.name).filter((n) => !toolsFor(terminal.owner).has(n));
  if (missing.length > 0) log.error(`mcp: contributed tools without an implementation: ${missing.join(', ')}`);
  const endpoint = new McpEndpoint(context, { service: terminal.service, toolsFor, clients, log });
  const provider = registerMcpDefinitionProvider(endpoint, log);
  log.info(`mcp: ${provider ? "listed in VS Code's own MCP servers while on" : "not listed in VS Code's own MCP servers (no usable API before VS Code 1.101)"}`);
  const registrations = vscode.Disposable.from(endpoint, registerConnectCommand(endpoint), ...(provider ? [provider] : []));
  return { shutdown: () => endpoint.shutdown(), dispose: () => void registrations.dispose() };
}
