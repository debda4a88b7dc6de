/**
 * The shape check of a receiver identity a caller passes back (a send's `expectReceiver`, a
 * signal's `expect`): what `confirmedIdentity(sendTarget(...))` returns, or nothing.
 */
import { quoteInput } from '../../common/quoteInput';
import { isIntegerIn } from '../../common/integerInput';
import { TerminalError } from '../errors';
import type { ReceiverIdentity } from '../types';

/** The receiver kinds a ReceiverIdentity may name (InputReceiver's). */
const RECEIVER_KINDS: readonly string[] = ['shell-prompt', 'shell-continuation', 'program', 'exited'];

/** What a valid receiver identity is, for the errors of {@link checkReceiverIdentity}. */
const RECEIVER_IDENTITY_SHAPE =
  `an object {kind, processGroup?, process?, place?} as confirmedIdentity(sendTarget(...)) returns it: kind one of ${RECEIVER_KINDS.join(', ')}; ` +
  'processGroup a positive integer; process {pid: a positive integer, startTime, dev?, ino?: integers ≥ 0}; place {cwd?: a string, traps: {kind: "none"} | {kind: "unknown"} | {kind: "set", text: a string}}';

/**
 * Refuses a receiver identity (a send's `expectReceiver`, a signal's `expect`) of the wrong type
 * or shape: compared as it is, it would refuse every send as RECEIVER_CHANGED, or pass one whose
 * place it cannot check. Left out (undefined or null) passes.
 * @param field the input's name in the error.
 * @throws TerminalError INVALID_ARGUMENT naming the part that is wrong, what was given and what is valid.
 */
export function checkReceiverIdentity(value: unknown, field: string): asserts value is ReceiverIdentity | undefined | null {
  if (value === undefined || value === null) return;
  const refuse = (what: string, given: unknown): never => {
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `${what} is not valid (got ${quoteInput(given)}): ${field} must be ${RECEIVER_IDENTITY_SHAPE}`,
    );
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return refuse(field, value);
  if (typeof value.kind !== 'string' || !RECEIVER_KINDS.includes(value.kind)) refuse(`${field}.kind`, value.kind);
  const group = value.processGroup;
  if (group !== undefined && !isIntegerIn(group, 1)) refuse(`${field}.processGroup`, group);
  const stated = value.process;
  if (stated !== undefined) {
    if (!isObject(stated)) return refuse(`${field}.process`, stated);
    if (!isIntegerIn(stated.pid, 1)) refuse(`${field}.process.pid`, stated.pid);
    if (!isIntegerIn(stated.startTime, 0)) refuse(`${field}.process.startTime`, stated.startTime);
    for (const key of ['dev', 'ino'] as const)
      if (stated[key] !== undefined && !isIntegerIn(stated[key], 0)) refuse(`${field}.process.${key}`, stated[key]);
  }
  const place = value.place;
  if (place === undefined) return;
  if (!isObject(place)) return refuse(`${field}.place`, place);
  if (place.cwd !== undefined && typeof place.cwd !== 'string') refuse(`${field}.place.cwd`, place.cwd);
  const traps = place.traps;
  const validTraps =
    isObject(traps) && (traps.kind === 'none' || traps.kind === 'unknown' || (traps.kind === 'set' && typeof traps.text === 'string'));
  if (!validTraps) refuse(`${field}.place.traps`, traps);
}
