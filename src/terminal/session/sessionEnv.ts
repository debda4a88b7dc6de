/**
 * The environment of a new agent session: the extension host's environment without what belongs
 * to the host, then the non-interactive defaults, then `dsh.terminal.env`, then the caller's.
 */
import { randomBytes } from 'node:crypto';
import { isHostPrivate } from '../../common/hostPrivateEnv';
import { NON_INTERACTIVE_ENV } from '../config';

/** The guard variable every session's environment carries (value `1`); startup files test it to stay out of agent sessions. */
export const SESSION_GUARD_VARIABLE = 'DSH_BRIDGE_SESSION';

/**
 * The variable that marks every process a session starts (value: the session's random mark, see
 * {@link newSessionMark}): inherited through fork and exec, it finds the session's processes after
 * they left its process groups (proc/ownedProcesses.ts). Set over anything the environment gives.
 */
export const SESSION_MARK_VARIABLE = 'DSH_SESSION';

/** A new session mark: 128 random bits as 32 hex digits, never guessed from outside the session. */
export function newSessionMark(): string {
  return randomBytes(16).toString('hex');
}

/** Variables never inherited by a session: they describe the host's terminal, not this one. */
const HOST_TERMINAL_ENV = ['TMUX', 'TMUX_PANE', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION'];

/**
 * Environment of a new session, in this order: `base` (the extension host's, by default) without
 * the host's terminal variables and its private ones (`HOST_PRIVATE_ENV`, common/hostPrivateEnv.ts); the
 * non-interactive defaults (`PAGER=cat`, …), `TERM=xterm-256color` and `DSH_BRIDGE_SESSION=1`;
 * then `configured` (`dsh.terminal.env`) and `requested` (the opener's), which may set any
 * variable, those names included; `null` removes a variable.
 */
export function sessionEnv(
  configured: Record<string, string | null>,
  requested: Record<string, string | null> = {},
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string | null | undefined> = {};
  for (const [name, value] of Object.entries(base)) {
    if (HOST_TERMINAL_ENV.includes(name) || isHostPrivate(name)) continue;
    env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE_ENV, { TERM: 'xterm-256color', [SESSION_GUARD_VARIABLE]: '1' }, configured, requested);
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
