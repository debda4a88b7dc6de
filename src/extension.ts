/**
 * Composition root: builds the services, registers backends, tools and commands. Every feature
 * lives in its own module and returns a Disposable; nothing here holds logic of its own.
 */
import * as vscode from 'vscode';
import { describe } from './terminal/errors';
import { CLOSE_MAX_MS, PtyBashBackend } from './terminal/ptyBash';
import { TerminalService } from './terminal/service';
import { loadExtensionNodePty } from './vscode/nodePtyLoader';
import { TerminalSettings } from './vscode/settings';
import { registerAgentTerminals } from './vscode/agentTerminals';
import { registerTerminalCommands } from './vscode/terminalCommands';
import type { TerminalToolContext } from './vscode/tools/terminal/context';
import { registerTools, ToolDeps } from './vscode/tools/registry';
import { registerTmux, tmuxDetector } from './vscode/tmux';
import { NavigationApi, createNavigationApi } from './lsp/navigationApi';
import { TerminalApi, createTerminalApi } from './terminal/terminalApi';
import { LspService } from './lsp/service';
import { FeatureRegistry } from './lsp/features/registry';
import { NavigationContext } from './vscode/navigationContext';
import { registerMdLinks } from './vscode/mdLinks';
import { registerVsCodeFeatures } from './vscode/vscodeFeatures';
import { registerVsCodeFallback } from './vscode/vscodeFallback';
import { registerStdioServers } from './vscode/stdioProvider';
import { registerNavigationCommands } from './vscode/navigationCommands';
import { AgentOwners } from './vscode/agentOwners';
import { registerMcp } from './vscode/mcp';

/**
 * What `activate` returns to other extensions (`vscode.extensions.getExtension(...).exports`):
 * frozen facades over the services, never the services themselves.
 */
export interface DshBridgeApi {
  readonly apiVersion: 1;
  /**
   * Terminals: call `createOwner(label)` for your own identity and pass it to every call; you see,
   * read and act on the sessions you opened, and on no other (the agent tools' included).
   */
  readonly terminal: TerminalApi;
  /**
   * The navigation seam: `registerProvider({id, extensions, query})` serves `dsh_lsp` (and the
   * palette commands) for your file extensions; `query(...)` answers with LSP positions (0-based).
   */
  readonly navigation: NavigationApi;
}

/**
 * What {@link deactivate} awaits: each step ends something that needs time (terminal sessions,
 * the MCP endpoint's socket); they run at once.
 */
let teardown: Array<() => Promise<void>> = [];

/**
 * How long deactivation may take: VS Code gives an extension host at most 5 s to shut down after
 * it calls `deactivate` (VS Code maintainers in microsoft/vscode#47881 and #114688: "Extensions
 * have at most 5 seconds to clean up"). A session's close takes at most CLOSE_MAX_MS (SIGHUP, then
 * SIGKILL); the rest is left for everything else that shuts down.
 */
const DEACTIVATE_BUDGET_MS = Math.min(4500, CLOSE_MAX_MS + 250);

export function activate(context: vscode.ExtensionContext): DshBridgeApi {
  const log = vscode.window.createOutputChannel('DSH Bridge', { log: true });
  const settings = new TerminalSettings(log);
  const service = new TerminalService(log);
  teardown = [() => service.closeAll('extension deactivated')];
  const owner = service.createOwner('DSH Bridge tools');
  context.subscriptions.push(log, settings, service, owner);

  let unavailable: string | undefined;
  if (process.platform === 'win32') {
    unavailable = 'the pty-bash backend needs Linux or macOS (bash on a PTY)';
  } else {
    try {
      const { pty } = loadExtensionNodePty(log);
      context.subscriptions.push(service.registerBackend(new PtyBashBackend(pty, () => settings.value, log)));
    } catch (error) {
      unavailable = describe(error);
      log.error(`terminal backend unavailable: ${unavailable}`);
    }
  }

  const tools: TerminalToolContext = { service, owner, unavailable: () => unavailable };
  const mcpClients = new AgentOwners();
  const panel = registerAgentTerminals(tools, mcpClients);
  const tmux = tmuxDetector(log);
  context.subscriptions.push(panel, registerTerminalCommands(tools, panel), registerTmux(tmux, log));

  // Navigation: md-links first, then the VS Code fallback over every other contributed language,
  // then the configured language servers (each takes its extensions from the fallback).
  const navigation = new LspService();
  const nav: NavigationContext = { service: navigation, features: new FeatureRegistry(navigation), log };
  context.subscriptions.push(registerMdLinks(nav), registerVsCodeFeatures(nav), registerVsCodeFallback(nav));
  const servers = registerStdioServers(nav);
  const toolDeps: ToolDeps = { terminal: tools, navigation: nav, tmux, log };
  context.subscriptions.push(
    servers,
    registerTools(context, toolDeps),
    registerNavigationCommands(nav, { extension: context, backendTypes: () => service.backendTypes(), languageServers: () => ({ servers: servers.describe(), errors: servers.errors }) }),
  );
  const mcp = registerMcp(context, { tools: toolDeps, clients: mcpClients, log });
  context.subscriptions.push(mcp);
  teardown.push(() => mcp.shutdown());
  return Object.freeze({ apiVersion: 1, terminal: createTerminalApi(service), navigation: createNavigationApi(navigation) });
}

/**
 * Ends every terminal session (with the SIGKILL escalation) and stops the MCP endpoint (its
 * connections closed, its socket removed), and waits for both within DEACTIVATE_BUDGET_MS. Called
 * by VS Code before it disposes `context.subscriptions` (whose disposal would not wait).
 */
export async function deactivate(): Promise<void> {
  const steps = teardown;
  teardown = [];
  if (steps.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, DEACTIVATE_BUDGET_MS)));
  await Promise.race([Promise.allSettled(steps.map((step) => step())), budget]);
  clearTimeout(timer);
}
