/**
 * A session's status as its messages say it: `running`, `killed by SIGKILL`, `exit code 1`.
 */
import type { SessionStatus } from '../types';

/** The words for `status` in an error or a log line (the signal by name, as SessionStatus holds it). */
export function statusText(status: SessionStatus): string {
  return status.kind === 'running' ? 'running' : status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`;
}
