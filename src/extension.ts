/**
 * Composition root: builds the services, registers backends, tools and commands. Every feature
 * lives in its own module and returns a Disposable; nothing here holds logic of its own.
 */
import * as vscode from 'vscode';
import { describe } from './terminal/errors';
import { PtyBashBackend } from './terminal/ptyBash';
import { TerminalService } from './terminal/service';
import { loadExtensionNodePty } from './vscode/nodePtyLoader';
import { TerminalSettings } from './vscode/settings';
import { registerAgentTerminals } from './vscode/agentTerminals';
import { registerTerminalCommands } from './vscode/terminalCommands';
import { TerminalToolContext, registerTerminalTools } from './vscode/terminalTools';
import { registerTmux } from './vscode/tmux';
import type { LspService } from './lsp/service';
import { registerNavigation } from './vscode/navigation';

/** What `activate` returns to other extensions (`vscode.extensions.getExtension(...).exports`). */
export interface DshBridgeApi {
  apiVersion: 1;
  /** The terminal service: call `createOwner()` for your own identity; our sessions are not yours. */
  terminal: TerminalService;
  /**
   * The navigation seam: `registerProvider({id, extensions, query})` serves `dsh_lsp` (and the
   * palette commands) for your file extensions; `query(...)` answers with LSP positions (0-based).
   */
  navigation: LspService;
}

export function activate(context: vscode.ExtensionContext): DshBridgeApi {
  const log = vscode.window.createOutputChannel('DSH Bridge', { log: true });
  const settings = new TerminalSettings(log);
  const service = new TerminalService(log);
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
  context.subscriptions.push(registerTerminalTools(tools), registerTerminalCommands(tools), registerAgentTerminals(tools));
  registerTmux(context, log);
  const navigation = registerNavigation(context, log, () => service.backendTypes());
  return { apiVersion: 1, terminal: service, navigation };
}

export function deactivate(): void {}
