/**
 * Composition root: builds the services, registers backends, tools and commands. Every feature
 * lives in its own module and returns a Disposable; nothing here holds logic of its own. Each part
 * is handed to the one owner of lifetimes (common/lifetimes.ts) as it is made, the only thing
 * `context.subscriptions` holds.
 */
import * as path from 'node:path';
import { ApprovalThread } from './approval/approvalThread';
import * as vscode from 'vscode';
import { CLOSE_MAX_MS, PtyBashBackend } from './terminal/bash/ptyBash';
import type { PtyShellBackend } from './terminal/session/ptyBackend';
import { PtyZshBackend } from './terminal/zsh/ptyZsh';
import { currentShellChoice, preventShellHistory } from './vscode/terminal/shellSettings';
import { TerminalService } from './terminal/service';
import { loadExtensionNodePty } from './vscode/terminal/nodePtyLoader';
import { TerminalSettings } from './vscode/terminal/terminalSettings';
import { SandboxRuntime, sandboxWritableFolders } from './terminal/sandbox/runtime';
import type { SandboxPolicyUse } from './terminal/sandbox/policySource';
import { SandboxSettings } from './vscode/terminal/sandboxSettings';
import { registerAgentTerminals } from './vscode/terminal/agentTerminals';
import { registerTerminalCommands } from './vscode/terminal/commands';
import { registerSandboxRepositoriesCommand } from './vscode/terminal/sandboxRepositoriesCommand';
import { detachBackgroundProcesses } from './vscode/terminal/backgroundSettings';
import type { TerminalToolContext } from './vscode/tools/terminal/context';
import { registerTools, ToolDeps } from './vscode/tools/registry';
import { registerTmux, tmuxDetector } from './vscode/tmux/statusBar';
import { NavigationApi, createNavigationApi } from './lsp/navigationApi';
import { TerminalApi, createTerminalApi } from './terminal/terminalApi';
import { LspService } from './lsp/service';
import { FeatureRegistry } from './lsp/features/registry';
import { NavigationContext } from './vscode/navigation/navigationContext';
import { registerMdLinks } from './vscode/markdown/wikiLinks';
import { registerVsCodeFeatures } from './vscode/navigation/vscodeFeatures';
import { registerVsCodeFallback } from './vscode/navigation/vscodeFallback';
import { registerStdioServers } from './vscode/navigation/languageServers';
import { registerNavigationCommands } from './vscode/navigation/commands';
import { McpClientOwners } from './vscode/mcp/clientOwners';
import { registerMcp } from './vscode/mcp/mcpSurface';
import { Lifetimes } from './common/lifetimes';
import { MatchPool } from './terminal/output/matchPool';
import { trustedTerminalApi } from './vscode/terminal/trustedTerminalApi';
import { errorMessage } from './common/errorMessage';

/**
 * What `activate` returns to other extensions (`vscode.extensions.getExtension(...).exports`):
 * frozen facades over the services, never the services themselves.
 */
export interface DshBridgeApi {
  readonly apiVersion: 1;
  /**
   * Terminals: call `createOwner(label)` for your own identity and pass it to every call; you see,
   * read and act on the sessions you opened, and on no other (the agent tools' included). In
   * Restricted Mode `open`, `send` and `startBackground` are refused (`code` `UNTRUSTED_WORKSPACE`),
   * as the terminal tools are: nothing starts in an untrusted workspace.
   */
  readonly terminal: TerminalApi;
  /**
   * The navigation seam: `registerProvider({id, extensions, query})` serves `dsh_lsp` (and the
   * palette commands) for your file extensions; `query(...)` answers with LSP positions (0-based).
   */
  readonly navigation: NavigationApi;
}

/** The owner of this activation's parts, which {@link deactivate} ends. */
let lifetimes: Lifetimes | undefined;

/**
 * How long deactivation may take: VS Code gives an extension host at most 5 s to shut down after
 * it calls `deactivate` (VS Code maintainers in microsoft/vscode#47881 and #114688: "Extensions
 * have at most 5 seconds to clean up"). A session's close takes at most CLOSE_MAX_MS (SIGHUP, then
 * SIGKILL), a language server's stop at most 3 s (1 s for `shutdown` and `exit`, then SIGTERM and
 * SIGKILL 2 s later), all at once; the rest is left for everything else that shuts down.
 */
const DEACTIVATE_BUDGET_MS = Math.min(4500, CLOSE_MAX_MS + 250);

export function activate(context: vscode.ExtensionContext): DshBridgeApi {
  const log = vscode.window.createOutputChannel('DSH Bridge', { log: true });
  const life = (lifetimes = new Lifetimes(DEACTIVATE_BUDGET_MS, (message) => log.warn(`deactivation: ${message}`)));
  context.subscriptions.push(life);
  // Owned first, so ended last: every other part may log while it ends.
  life.own(log);
  const settings = life.own(new TerminalSettings(log));
  // An open that names no backend (the API other extensions get) runs the person's shell.
  const service = new TerminalService(
    log,
    () => settings.value,
    () => `pty-${currentShellChoice().shell}`,
  );
  service.setKeepByDefault(detachBackgroundProcesses);
  const sandboxRuntime = new SandboxRuntime(log);
  // Searches and waits' `until` matches of every backend share one bounded pool of worker threads.
  const pool = new MatchPool();
  const backends: PtyShellBackend[] = [];
  // What the sessions use (the sandbox's network proxies, the backends' render and redaction
  // threads, the pool) ends once they have closed: output that arrives while they close is still
  // rendered and redacted.
  life.onEnd(() =>
    service
      .closeAll('extension deactivated')
      .finally(() => Promise.allSettled([sandboxRuntime.dispose(), ...backends.map((b) => b.dispose()), pool.dispose()])),
  );
  const owner = life.own(service.createOwner('DSH Bridge tools'));

  const sandbox = life.own(new SandboxSettings(context));
  let unavailable: string | undefined;
  if (process.platform === 'win32') {
    unavailable = 'the pty-bash and pty-zsh backends need Linux or macOS (bash or zsh on a PTY)';
  } else {
    try {
      const { pty } = loadExtensionNodePty(log);
      const backendOptions = {
        sandbox: { runtime: sandboxRuntime, policy: (use: SandboxPolicyUse) => sandbox.policy(use) },
        preventShellHistory,
        pool,
      };
      for (const backend of [
        new PtyBashBackend(pty, () => settings.value, log, backendOptions),
        new PtyZshBackend(pty, () => settings.value, log, backendOptions),
      ]) {
        backends.push(backend);
        life.own(service.registerBackend(backend));
      }
    } catch (error) {
      unavailable = errorMessage(error);
      log.error(`terminal backend unavailable: ${unavailable}`);
    }
  }

  // Command lines are judged against the person's terminal auto-approve rules in a worker thread.
  const approval = life.ownAsync(
    new ApprovalThread(
      path.join(__dirname, 'approvalWorker.js'),
      path.join(context.extensionPath, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'),
    ),
  );
  const tools: TerminalToolContext = {
    service,
    owner,
    unavailable: () => unavailable,
    sandboxPolicy: () => sandbox.policy(),
    approval,
    shellChoice: currentShellChoice,
  };
  const mcpClients = new McpClientOwners();
  const panel = life.own(registerAgentTerminals(tools, log, mcpClients));
  const tmux = tmuxDetector(log);
  life.own(registerTerminalCommands(tools, panel));
  life.own(registerSandboxRepositoriesCommand(sandboxRuntime));
  life.own(registerTmux(tmux, log));

  // Navigation: md-links first, then the VS Code fallback over every other contributed language,
  // then the configured language servers (each takes its extensions from the fallback).
  const navigation = new LspService();
  const nav: NavigationContext = { service: navigation, features: new FeatureRegistry(navigation), log };
  life.own(registerMdLinks(nav));
  life.own(registerVsCodeFeatures(nav));
  life.own(registerVsCodeFallback(nav));
  // While the agent sandbox is on, no configured server starts from a folder sandboxed commands can write.
  const servers = life.ownAsync(
    registerStdioServers(nav, {
      writableWhileSandboxed: async () => {
        const policy = sandbox.policy();
        return policy.on ? sandboxWritableFolders(policy) : undefined;
      },
    }),
  );
  const toolDeps: ToolDeps = { terminal: tools, navigation: nav, tmux, log };
  life.own(registerTools(context, toolDeps));
  life.own(
    registerNavigationCommands(nav, {
      extension: context,
      backendTypes: () => service.backendTypes(),
      languageServers: () => ({ servers: servers.describe(), errors: servers.errors }),
      agentSandbox: () => sandbox.policy(),
    }),
  );
  life.ownAsync(registerMcp(context, { tools: toolDeps, clients: mcpClients, log }));
  return Object.freeze({
    apiVersion: 1,
    terminal: trustedTerminalApi(createTerminalApi(service)),
    navigation: createNavigationApi(navigation),
  });
}

/**
 * Ends this activation's parts (common/lifetimes.ts) within DEACTIVATE_BUDGET_MS: every terminal
 * session (with the SIGKILL escalation) and then the threads and proxies the sessions used, the
 * MCP endpoint (its connections closed, its socket removed), every configured language server
 * (`shutdown` and `exit`, then its process group ended) and the approval thread at once, awaited;
 * then the registrations, newest first. Called by
 * VS Code before it disposes `context.subscriptions` (which then holds nothing left to end).
 */
export async function deactivate(): Promise<void> {
  const ending = lifetimes;
  lifetimes = undefined;
  await ending?.end();
}
