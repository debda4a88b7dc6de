/**
 * The MCP surface of the extension: the window's endpoint (./endpoint.ts), the command "DSH:
 * Connect an Agent (MCP)" (./connectCommand.ts) and, where VS Code offers it, the MCP server
 * definition provider. Every connection gets its own instance of every tool from the one registry
 * (../tools/registry.ts), acting for its own owner.
 */
import * as vscode from 'vscode';
import type { Owner } from '../../terminal/owner';
import type { McpClientOwners } from './clientOwners';
import { registerConnectCommand } from './connectCommand';
import { McpEndpoint, registerMcpDefinitionProvider } from './endpoint';
import { createTools, ToolDeps } from '../tools/registry';

/** What the MCP surface needs from the composition root. */
export interface McpDeps {
  /** What every connection's tools are made from (../tools/registry.ts); each connection acts for its own owner. */
  tools: ToolDeps;
  clients: McpClientOwners;
  log: vscode.LogOutputChannel;
}

/** The MCP surface as the composition root holds it. */
export interface McpSurface {
  /**
   * Closes every connection and removes the endpoint's socket, then disposes the surface's
   * registrations; resolves when the socket is gone (the lifetimes owner awaits it).
   */
  dispose(): Promise<void>;
}

/** Registers the MCP surface; everything is ended with the returned surface's `dispose`. */
export function registerMcp(context: vscode.ExtensionContext, deps: McpDeps): McpSurface {
  const { tools, clients, log } = deps;
  const toolsFor = (owner: Owner) => createTools(tools, owner);
  const endpoint = new McpEndpoint(context, { service: tools.terminal.service, toolsFor, clients, log });
  const provider = registerMcpDefinitionProvider(endpoint, log);
  log.info(
    `mcp: ${provider ? "listed in VS Code's own MCP servers while on" : "not listed in VS Code's own MCP servers (no usable API before VS Code 1.101)"}`,
  );
  const registrations = vscode.Disposable.from(endpoint, registerConnectCommand(endpoint), ...(provider ? [provider] : []));
  return {
    dispose: async () => {
      try {
        await endpoint.shutdown();
      } finally {
        registrations.dispose();
      }
    },
  };
}
