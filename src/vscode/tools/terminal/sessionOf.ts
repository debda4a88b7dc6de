/** One session of the caller's owner looked up by id, for views and confirmations that show it when it is there. */
import { TerminalError, type TerminalErrorCode } from '../../../terminal/errors';
import type { SessionInfo } from '../../../terminal/publishedSession';
import type { TerminalToolContext } from './context';

/** The codes with which `TerminalService.info` says the owner has no such session (any more). */
const NOT_THERE: readonly TerminalErrorCode[] = ['NO_SUCH_SESSION', 'NOT_SESSION_OWNER', 'OWNER_DISPOSED'];

/**
 * One of `ctx.owner`'s sessions as `TerminalService.info` gives it (that session alone is looked
 * at), or undefined when the owner has no such session: an id that is not a string or unknown,
 * another owner's session, or the owner disposed. Other errors are thrown.
 */
export function sessionOf(ctx: Pick<TerminalToolContext, 'service' | 'owner'>, sessionId: unknown): SessionInfo | undefined {
  if (typeof sessionId !== 'string') return undefined;
  try {
    return ctx.service.info(ctx.owner, sessionId);
  } catch (error) {
    if (error instanceof TerminalError && NOT_THERE.includes(error.code)) return undefined;
    throw error;
  }
}
