/**
 * The shared thread's time slices ({@link BaseSlice}, common/timeSlice.ts) for the navigation
 * service's long loops, with cancellation: a loop over every note of a large vault calls
 * {@link TimeSlice.pause} each step, which yields once the budget is spent and then throws when the
 * request was cancelled meanwhile.
 */
import { TimeSlice as BaseSlice } from '../common/timeSlice';
import { throwIfAborted } from './cancellation';

/** A budget of synchronous work between yields that a cancelled request stops at its next yield. */
export class TimeSlice extends BaseSlice {
  /**
   * Resolves at once while the budget lasts, else after the next turn of the event loop.
   * @throws LspError `cancelled` when `signal` aborted (checked after a yield).
   */
  override async pause(signal?: AbortSignal): Promise<void> {
    if (!this.due()) return;
    await super.pause();
    throwIfAborted(signal);
  }
}
