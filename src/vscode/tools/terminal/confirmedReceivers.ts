/** Plain Node, no `vscode` import. */
import { TerminalError } from '../../../terminal/errors';
import type { ReceiverIdentity } from '../../../terminal/types';

/**
 * The receivers shown in confirmations, kept until the confirmed call runs: its send then refuses
 * (RECEIVER_CHANGED, nothing typed) when another program would read the input by then. A call is
 * keyed by the JSON of the values that identify it; at most {@link ConfirmedReceivers.MAX} are
 * kept, the oldest forgotten first. `V` is what is kept per call: the receiver's identity by
 * default, or more (dsh_run keeps which session it was). A call whose receiver is not on record
 * is refused ({@link unconfirmedError}), never run unchecked.
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

/**
 * The refusal of a call whose confirmed receiver is not on record: more than
 * {@link ConfirmedReceivers.MAX} calls waited to run since it was confirmed, or an identical call
 * confirmed after it ran first and took it. Nothing was done (`done`: `typed`, `run`, `delivered`).
 */
export function unconfirmedError(tool: string, done: string): TerminalError {
  return new TerminalError(
    'RECEIVER_CHANGED',
    `nothing was ${done}: what this call's confirmation showed is no longer on record (at most ${ConfirmedReceivers.MAX} confirmed calls are kept until they run, and an identical call confirmed later takes the record). Call ${tool} again`,
  );
}
