/** One session of the caller's owner looked up by id, for views and confirmations that show it when it is there. */
import { TerminalError } from '../../../terminal/errors';
import type { SessionInfo } from '../../../terminal/session/publishedSession';
import type { TerminalToolContext } from './context';

/**
 * One of `ctx.owner`'s sessions as `TerminalService.find` gives it (that session alone is looked
 * at), or undefined when the owner has no such session: an id that is not a string or unknown,
 * another owner's session, or the owner disposed. Other errors are thrown.
 */
export function sessionOf(ctx: Pick<TerminalToolContext, 'service' | 'owner'>, sessionId: unknown): SessionInfo | undefined {
  if (typeof sessionId !== 'string') return undefined;
  try {
    return ctx.service.find(ctx.owner, sessionId);
  } catch (error) {
    if (error instanceof TerminalError && error.code === 'OWNER_DISPOSED') return undefined;
    throw error;
  }
}
