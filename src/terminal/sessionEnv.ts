/**
 * The environment of a new agent session: the extension host's environment without what belongs
 * to the host, then the non-interactive defaults, then `dsh.terminal.env`, then the caller's.
 */
import { NON_INTERACTIVE_ENV } from './config';

/** The guard variable every session's environment carries (value `1`); startup files test it to stay out of agent sessions. */
export const SESSION_GUARD_VARIABLE = 'DSH_BRIDGE_SESSION';

/** Variables never inherited by a session: they describe the host's terminal, not this one. */
const HOST_TERMINAL_ENV = ['TMUX', 'TMUX_PANE', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION'];

/**
 * Names of the extension host's private variables, which a session never inherits: the ones VS
 * Code's own integrated terminal removes (`sanitizeProcessEnvironment` in VS Code's
 * src/vs/base/common/processes.ts): `ELECTRON_*` (e.g. `ELECTRON_RUN_AS_NODE=1`, which turns
 * any Electron program started from the shell into plain Node), `VSCODE_*` except the user-facing
 * `VSCODE_PORTABLE`, `VSCODE_SHELL_LOGIN` and `VSCODE_ENV_{REPLACE,APPEND,PREPEND}` (among them
 * `VSCODE_IPC_HOOK_CLI`, a socket into the running VS Code), `SNAP` and `SNAP_*`, `GDK_PIXBUF_*`.
 */
export const HOST_PRIVATE_ENV: readonly RegExp[] = Object.freeze([
  /^ELECTRON_.+$/,
  /^VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)).+$/,
  /^SNAP(|_.*)$/,
  /^GDK_PIXBUF_.+$/,
]);

/**
 * Environment of a new session, in this order: `base` (the extension host's, by default) without
 * the host's terminal variables and its private ones ({@link HOST_PRIVATE_ENV}); the
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
    if (HOST_TERMINAL_ENV.includes(name) || HOST_PRIVATE_ENV.some((re) => re.test(name))) continue;
    env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE_ENV, { TERM: 'xterm-256color', [SESSION_GUARD_VARIABLE]: '1' }, configured, requested);
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
