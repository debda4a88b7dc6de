/**
 * One MCP client connection: an MCP `Server` (the official SDK, ../../mcp/toolServer.ts) serving
 * the extension's Language Model Tools under the same names, input schemas and descriptions (the
 * tool declarations, src/tools/toolDeclarations.ts), their input validated as declared, with the same results (each
 * `LanguageModelTextPart` becomes an MCP text content item) and the same errors (as `isError`
 * results). Every connection is its own {@link Owner}: it sees and acts on its own sessions only,
 * and when it disconnects its sessions are closed with their process groups. A call runs the same
 * tool object's `prepareInvocation` (its confirmation asks the person, see ./approval.ts) and
 * `invoke`.
 */
import type { Socket } from 'node:net';
import * as vscode from 'vscode';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { visibleText } from '../../terminal/input/input';
import { SocketTransport } from '../../mcp/socketTransport';
import { createToolServer, errorResult } from '../../mcp/toolServer';
import type { ToolDeclaration } from '../../tools/declaration';
import type { TerminalService } from '../../terminal/service';
import type { Owner } from '../../terminal/owner';
import type { McpClientOwners } from './clientOwners';
import { McpApproval, McpDeniedError } from './approval';
import { grantByClient } from '../tools/approvalGrant';
import type { ToolImpl } from '../tools/registry';
import { UNTRUSTED_MESSAGE } from '../tools/terminal/terminalTool';
import { errorMessage } from '../../common/errorMessage';

/** What a connection needs from the extension. */
export interface McpConnectionDeps {
  service: TerminalService;
  /** The tools served, in order. */
  declarations: readonly ToolDeclaration[];
  /** One instance of every tool acting for `owner`, by name. */
  toolsFor(owner: Owner): Map<string, ToolImpl>;
  /** Where the connection's owner is registered for the panel mirrors. */
  clients: McpClientOwners;
  log: vscode.LogOutputChannel;
  /** The extension's version, reported as the MCP server's version. */
  version: string;
}

let nextConnection = 1;

export class McpConnection {
  /** Connection number in this window (logs only). */
  readonly id = nextConnection++;
  private readonly server: Server;
  private readonly approval = new McpApproval(() => this.clientName());
  private owned?: { owner: Owner; tools: Map<string, ToolImpl>; mirror: { dispose(): void } };
  private closed = false;

  /**
   * Serves MCP on an authenticated socket until it closes.
   * @param rest bytes that followed the handshake line (the first MCP bytes).
   * @param onClosed called once when the connection is gone and its sessions are being closed.
   */
  constructor(
    socket: Socket,
    rest: Buffer,
    private readonly deps: McpConnectionDeps,
    private readonly onClosed: (c: McpConnection) => void,
  ) {
    const transport = new SocketTransport(socket, rest);
    this.server = createToolServer({
      name: 'dsh-bridge',
      version: deps.version,
      declarations: deps.declarations,
      // The client's cancellation reaches a call through the transport (the SDK's signal only
      // aborts when the connection closes); see SocketTransport.
      call: (declaration, input, extra) => this.call(declaration.name, input, transport.cancellationOf(extra.requestId) ?? extra.signal),
    });
    this.server.oninitialized = () => deps.log.info(`mcp: connection ${this.id} is ${this.clientName()}`);
    transport.onerror = (e) => deps.log.warn(`mcp: connection ${this.id}: ${e.message}`);
    this.server.onclose = () => this.dispose();
    void this.server.connect(transport).catch((e) => {
      deps.log.error(`mcp: connection ${this.id} failed to start: ${errorMessage(e)}`);
      this.dispose();
    });
  }

  /**
   * The client's name from its `initialize` request (its first 64 characters, control and
   * invisible characters shown as `⟨U+200B⟩` by `visibleText`, since it appears in dialogs and
   * terminal titles), else "MCP client".
   */
  clientName(): string {
    const name = this.server.getClientVersion()?.name;
    const shown = typeof name === 'string' ? visibleText(Array.from(name).slice(0, 64).join('')).trim() : '';
    return shown || 'MCP client';
  }

  /** Ends the connection; its owner is disposed, which closes its sessions. Idempotent. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) {
      this.deps.log.info(`mcp: connection ${this.id} (${this.clientName()}) closed; closing its sessions`);
      const { owner, mirror } = this.owned;
      // The panel keeps following the owner until its last session is closed (and its mirror gone).
      const release = () => {
        if (this.deps.service.hasOwnerActivity(owner)) return;
        watch.dispose();
        setTimeout(() => mirror.dispose(), 0);
      };
      const watch = this.deps.service.onDidChangeSessions(owner, () => release());
      owner.dispose();
      release();
    }
    void this.server.close().catch(() => undefined);
    this.onClosed(this);
  }

  private async call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.closed) return errorResult('the connection is closing');
    // Never served in Restricted Mode; re-checked on every call all the same.
    if (!vscode.workspace.isTrusted) return errorResult(UNTRUSTED_MESSAGE);
    const tools = this.ownTools();
    const tool = tools.get(name);
    if (!tool) return errorResult(`${name} is declared but not served in this window`);
    const cts = new vscode.CancellationTokenSource();
    const cancel = () => cts.cancel();
    signal.addEventListener('abort', cancel);
    try {
      const prepared = await tool.prepareInvocation?.({ input }, cts.token);
      const allowedBy = await this.approval.check(name, prepared);
      if (signal.aborted) return errorResult(`${name} was cancelled by the client`);
      const options = { input, toolInvocationToken: undefined };
      const result = await tool.invoke(allowedBy === 'client' ? grantByClient(options) : options, cts.token);
      const content: CallToolResult['content'] = [];
      for (const part of result?.content ?? []) {
        if (part instanceof vscode.LanguageModelTextPart) content.push({ type: 'text', text: part.value });
      }
      return { content };
    } catch (e) {
      if (!(e instanceof McpDeniedError)) this.deps.log.info(`mcp: ${this.clientName()}: ${name} failed: ${errorMessage(e)}`);
      return errorResult(errorMessage(e));
    } finally {
      signal.removeEventListener('abort', cancel);
      cts.dispose();
    }
  }

  /** The connection's owner and tools, made on the first call (the client's name is known by then). */
  private ownTools(): Map<string, ToolImpl> {
    if (!this.owned) {
      const client = this.clientName();
      const owner = this.deps.service.createOwner(`${client} (MCP connection ${this.id})`);
      this.owned = { owner, tools: this.deps.toolsFor(owner), mirror: this.deps.clients.add(owner, client) };
    }
    return this.owned.tools;
  }
}
