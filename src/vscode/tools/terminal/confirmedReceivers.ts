/** Plain Node, no `vscode` import. */
import { TerminalError } from '../../../terminal/errors';
import type { ReceiverIdentity } from '../../../terminal/types';

/** The record of identical calls confirmed with different receivers. */
const AMBIGUOUS = Symbol('ambiguous');

/**
 * The receivers shown in confirmations, kept until the confirmed call runs: its send then refuses
 * (RECEIVER_CHANGED, nothing typed) when another program would read the input by then. A call is
 * keyed by the JSON of the values that identify it; at most {@link ConfirmedReceivers.MAX} are
 * kept, the oldest forgotten first. `V` is what is kept per call: the receiver's identity by
 * default, or more (dsh_run keeps which session it was). A call whose receiver is not on record
 * is refused ({@link unconfirmedError}), never run unchecked.
 *
 * Identical calls cannot be told apart when they run. When one is confirmed while an identical
 * one's record waits and the two showed different receivers (concurrent MCP calls, a call the
 * person denied, then asked again elsewhere), neither record is trusted: the next run of that call
 * is refused, and the call after it is confirmed afresh.
 */
export class ConfirmedReceivers<V = ReceiverIdentity> {
  private readonly byCall = new Map<string, { value: V } | typeof AMBIGUOUS>();
  /** How many confirmed calls are remembered at once. */
  static readonly MAX = 64;

  /**
   * Remembers the receiver shown for `call`. An earlier record of the same call with the same
   * receiver (compared as JSON) is replaced; with another receiver, the call's record becomes
   * ambiguous (see the class comment).
   */
  remember(call: unknown, identity: V): void {
    const key = JSON.stringify(call);
    const earlier = this.byCall.get(key);
    this.byCall.delete(key);
    const differs = earlier !== undefined && (earlier === AMBIGUOUS || JSON.stringify(earlier.value) !== JSON.stringify(identity));
    this.byCall.set(key, differs ? AMBIGUOUS : { value: identity });
    if (this.byCall.size > ConfirmedReceivers.MAX) this.byCall.delete(this.byCall.keys().next().value!);
  }

  /**
   * The receiver shown for `call`, forgotten as it is returned; undefined when none was shown, or
   * when identical calls showed different ones (the record is forgotten too).
   */
  take(call: unknown): V | undefined {
    const key = JSON.stringify(call);
    const kept = this.byCall.get(key);
    this.byCall.delete(key);
    return kept === undefined || kept === AMBIGUOUS ? undefined : kept.value;
  }
}

/**
 * The refusal of a call whose confirmed receiver is not on record: more than
 * {@link ConfirmedReceivers.MAX} calls waited to run since it was confirmed, an identical call
 * ran first and took it, or identical calls were confirmed with different receivers. Nothing was
 * done (`done`: `typed`, `run`, `delivered`, `opened`).
 */
export function unconfirmedError(tool: string, done: string): TerminalError {
  return new TerminalError(
    'RECEIVER_CHANGED',
    `nothing was ${done}: what this call's confirmation showed is not on record or cannot be told apart (at most ${ConfirmedReceivers.MAX} confirmed calls are kept until they run, and identical calls confirmed with different receivers are refused). Call ${tool} again`,
  );
}
