/** Plain Node, no `vscode` import. */
import type { ReceiverIdentity } from '../../../terminal/types';

/**
 * The receivers shown in confirmations, kept until the confirmed call runs: its send then refuses
 * (RECEIVER_CHANGED, nothing typed) when another program would read the input by then. A call is
 * keyed by the JSON of the values that identify it; at most {@link ConfirmedReceivers.MAX} are
 * kept, the oldest forgotten first. `V` is what is kept per call: the receiver's identity by
 * default, or more (dsh_run keeps which session it was).
 */
export class ConfirmedReceivers<V = ReceiverIdentity> {
  private readonly byCall = new Map<string, V>();
  /** How many confirmed calls are remembered at once. */
  static readonly MAX = 64;

  /** Remembers the receiver shown for `call`, replacing an earlier one for the same call. */
  remember(call: unknown, identity: V): void {
    const key = JSON.stringify(call);
    this.byCall.delete(key);
    this.byCall.set(key, identity);
    if (this.byCall.size > ConfirmedReceivers.MAX) this.byCall.delete(this.byCall.keys().next().value!);
  }

  /** The receiver shown for `call`, forgotten as it is returned; undefined when none was shown. */
  take(call: unknown): V | undefined {
    const key = JSON.stringify(call);
    const identity = this.byCall.get(key);
    this.byCall.delete(key);
    return identity;
  }
}
