/**
 * The owners whose sessions the person sees in the terminal panel besides the tools' own owner:
 * one per MCP client connection, each with the client's name (from its MCP `initialize`
 * `clientInfo`), which titles its panel terminals.
 */
import type { Owner } from '../../terminal/owner';

export class McpClientOwners {
  private readonly clients = new Map<Owner, string>();
  private readonly listeners = new Set<(owner: Owner, followed: boolean) => void>();

  /** Follow `owner`'s sessions under `client`'s name until the returned disposer runs. */
  add(owner: Owner, client: string): { dispose(): void } {
    this.clients.set(owner, client);
    this.listeners.forEach((l) => l(owner, true));
    return {
      dispose: () => {
        if (this.clients.delete(owner)) this.listeners.forEach((l) => l(owner, false));
      },
    };
  }

  /** The client name of a followed owner, or undefined when it is not followed. */
  clientOf(owner: Owner): string | undefined {
    return this.clients.get(owner);
  }

  /** Every followed owner, in the order they were added. */
  owners(): Owner[] {
    return [...this.clients.keys()];
  }

  /** Calls `listener(owner, true)` when an owner is added, `(owner, false)` when it is removed. */
  onDidChange(listener: (owner: Owner, followed: boolean) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
