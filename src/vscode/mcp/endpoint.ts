/**
 * The window's MCP endpoint in the extension: on while `dsh.mcp.enabled` (machine scope, default
 * off) is true and the workspace is trusted, never in Restricted Mode. While on it listens on a
 * private Unix socket (src/mcp/), names it and the window's secret in `DSH_BRIDGE_MCP` in the
 * window's integrated terminals (`environmentVariableCollection`), serves one {@link McpConnection}
 * per client, and (VS Code 1.101 and later, feature-detected) lists itself to VS Code's own MCP
 * support through `vscode.lm.registerMcpServerDefinitionProvider`. Turning it off closes every
 * connection (and with them their sessions) and removes the socket and the variable.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MCP_SERVER_DEFINITION_PROVIDER, SETTING } from '../../common/ids';
import { ENDPOINT_ENV, formatEndpoint } from '../../mcp/discovery';
import { EndpointServer } from '../../mcp/endpointServer';
import { chooseSocketPath, socketDirCandidates } from '../../mcp/socketPath';
import type { TerminalService } from '../../terminal/service';
import type { Owner } from '../../terminal/owner';
import type { McpClientOwners } from './clientOwners';
import { watchAutoApprove } from './approval';
import { McpConnection } from './connection';
import type { ToolImpl } from '../tools/registry';
import { TOOL_DECLARATIONS } from '../../tools/toolDeclarations';
import { errorMessage } from '../../common/errorMessage';

/** What the endpoint is doing: `listening` (with its socket path), `off`, `restricted`, or `failed` (with why). */
export type McpState =
  | { state: 'listening'; socketPath: string; connections: number }
  | { state: 'off' }
  | { state: 'restricted' }
  | { state: 'failed'; error: string };

/** What the endpoint needs from the extension. */
export interface McpEndpointDeps {
  service: TerminalService;
  toolsFor(owner: Owner): Map<string, ToolImpl>;
  clients: McpClientOwners;
  log: vscode.LogOutputChannel;
}

/** The window's endpoint; see the module comment. */
export class McpEndpoint implements vscode.Disposable {
  private server: EndpointServer | undefined;
  private failure: string | undefined;
  private readonly connections = new Set<McpConnection>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the endpoint starts or stops. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: McpEndpointDeps,
  ) {
    // A stale value from an earlier window must not linger in restored terminals.
    context.environmentVariableCollection.persistent = false;
    context.environmentVariableCollection.description = 'DSH Bridge: the MCP endpoint of this window (for agents started in this terminal)';
    this.subscriptions.push(
      this.changed,
      watchAutoApprove(),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTING.mcpEnabled) && void this.apply()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.apply()),
    );
    void this.apply();
  }

  /** The stdio bridge the MCP clients launch (shipped in the VSIX). */
  get bridgePath(): string {
    return this.context.asAbsolutePath(path.join('dist', 'mcp-bridge.js'));
  }

  /** The value of `DSH_BRIDGE_MCP` while listening (holds the secret: never log it). */
  get connectionValue(): string | undefined {
    return this.server ? formatEndpoint(this.server.endpoint) : undefined;
  }

  /** The current state (no secret). */
  get state(): McpState {
    if (!vscode.workspace.isTrusted) return { state: 'restricted' };
    if (this.server) return { state: 'listening', socketPath: this.server.socketPath, connections: this.connections.size };
    if (this.failure) return { state: 'failed', error: this.failure };
    return { state: 'off' };
  }

  /** Starts or stops to match the setting and trust; resolves when done. Calls are serialized. */
  apply(): Promise<void> {
    this.applying = this.applying.then(() => this.applyNow()).catch((e) => this.deps.log.error(`mcp: ${errorMessage(e)}`));
    return this.applying;
  }

  /**
   * Stops serving for good (on deactivation): closes every connection, removes the socket and the
   * variable; resolves once the socket is gone. Settings or trust changes after it start nothing.
   */
  shutdown(): Promise<void> {
    for (const s of this.subscriptions) s.dispose();
    // After a start or stop in progress, so a start that was under way is undone too.
    this.applying = this.applying.then(() => this.stop()).catch((e) => this.deps.log.error(`mcp: ${errorMessage(e)}`));
    return this.applying;
  }

  dispose(): void {
    void this.stop();
    for (const s of this.subscriptions) s.dispose();
  }

  private async applyNow(): Promise<void> {
    const enabled = vscode.workspace.getConfiguration().get<boolean>(SETTING.mcpEnabled) === true;
    const want = enabled && vscode.workspace.isTrusted;
    if (want && !this.server) await this.start();
    if (!want && this.server) await this.stop();
    if (enabled && !vscode.workspace.isTrusted) this.deps.log.info('mcp: not started: the workspace is not trusted (Restricted Mode)');
  }

  private async start(): Promise<void> {
    this.failure = undefined;
    try {
      const storage = path.join(this.context.globalStorageUri.fsPath, 'mcp');
      const server = new EndpointServer(
        chooseSocketPath(socketDirCandidates(storage)),
        (socket, rest) => this.accept(socket, rest),
        this.deps.log,
      );
      await server.listen();
      this.server = server;
      this.context.environmentVariableCollection.replace(ENDPOINT_ENV, formatEndpoint(server.endpoint));
    } catch (e) {
      this.failure = errorMessage(e);
      this.deps.log.error(`mcp: could not start the endpoint: ${this.failure}`);
    }
    this.changed.fire();
  }

  private async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.context.environmentVariableCollection.delete(ENDPOINT_ENV);
    for (const c of [...this.connections]) c.dispose();
    await server?.close();
    this.changed.fire();
  }

  private accept(socket: import('node:net').Socket, rest: Buffer): void {
    const connection = new McpConnection(
      socket,
      rest,
      {
        ...this.deps,
        declarations: TOOL_DECLARATIONS,
        version: (this.context.extension.packageJSON as { version?: string }).version ?? '0',
      },
      (c) => this.connections.delete(c),
    );
    this.connections.add(connection);
    this.deps.log.info(`mcp: connection ${connection.id} accepted`);
  }
}

/** The parts of the MCP server definition API (VS Code 1.101+) used here, detected at run time. */
interface McpDefinitionApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(): unknown[] },
  ): vscode.Disposable;
}
type McpStdioDefinitionCtor = new (
  label: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  version?: string,
) => unknown;

/**
 * Lists the endpoint to VS Code's own MCP support where the API exists (VS Code 1.101 and
 * later): a stdio server running the bridge with this window's `DSH_BRIDGE_MCP`, present only
 * while the endpoint listens. Returns undefined where the API is missing or refuses (VS Code
 * 1.100 has an earlier form that wants another contribution point; that is logged).
 */
export function registerMcpDefinitionProvider(endpoint: McpEndpoint, log: vscode.LogOutputChannel): vscode.Disposable | undefined {
  const lm = vscode.lm as unknown as Partial<McpDefinitionApi>;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpStdioDefinitionCtor }).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') return undefined;
  // VS Code 1.100 has an earlier form of the API that wants another contribution point and
  // throws: the endpoint works without the listing.
  try {
    return registerProvider(lm as McpDefinitionApi, Definition, endpoint);
  } catch (e) {
    log.warn(`mcp: VS Code's MCP server definition API refused the provider (${errorMessage(e)}); agents connect through the bridge only`);
    return undefined;
  }
}

function registerProvider(lm: McpDefinitionApi, Definition: McpStdioDefinitionCtor, endpoint: McpEndpoint): vscode.Disposable {
  return lm.registerMcpServerDefinitionProvider(MCP_SERVER_DEFINITION_PROVIDER, {
    onDidChangeMcpServerDefinitions: endpoint.onDidChange,
    provideMcpServerDefinitions: () => {
      const value = endpoint.connectionValue;
      if (!value || !fs.existsSync(endpoint.bridgePath)) return [];
      // The extension host's own Node (Electron run as Node on desktop).
      return [new Definition('DSH Bridge', process.execPath, [endpoint.bridgePath], { [ENDPOINT_ENV]: value, ELECTRON_RUN_AS_NODE: '1' })];
    },
  });
}
