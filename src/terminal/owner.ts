/**
 * Who a terminal session belongs to: an `Owner` object from `TerminalService.createOwner()`. The
 * exact object that opened a session is the only one that can use it; disposing it closes its
 * sessions.
 */
import type { Disposable } from './types';

/** The identity sessions hang on. Disposing it closes all its sessions. */
export interface Owner extends Disposable {
  readonly label: string;
  readonly disposed: boolean;
}

/** The service's own implementation of {@link Owner}: the only kind of owner it accepts. */
export class ServiceOwner implements Owner {
  disposed = false;
  /** Spawns and closes under way; `hasOwnerActivity` is true while any is. */
  pending = 0;
  /** Spawns under way: they count toward the owner's open sessions (maxSessionsPerOwner). */
  opening = 0;

  /** @param onDispose called once, on the first `dispose()`: closes the owner's sessions. */
  constructor(
    readonly label: string,
    private readonly onDispose: (owner: ServiceOwner) => void,
  ) {}

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose(this);
  }
}
