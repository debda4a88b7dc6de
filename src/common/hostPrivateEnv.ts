/**
 * The extension host's private environment variables, which no process DSH Bridge starts for the
 * user inherits (agent sessions, configured language servers). Plain Node, no `vscode` import.
 */

/**
 * Names of the extension host's private variables: the ones VS Code's own integrated terminal
 * removes (`sanitizeProcessEnvironment` in VS Code's src/vs/base/common/processes.ts):
 * `ELECTRON_*` (e.g. `ELECTRON_RUN_AS_NODE=1`, which turns any Electron program started from the
 * process into plain Node), `VSCODE_*` except the user-facing `VSCODE_PORTABLE`,
 * `VSCODE_SHELL_LOGIN` and `VSCODE_ENV_{REPLACE,APPEND,PREPEND}` (among them
 * `VSCODE_IPC_HOOK_CLI`, a socket into the running VS Code), `SNAP` and `SNAP_*`, `GDK_PIXBUF_*`;
 * and DSH Bridge's own `DSH_BRIDGE_MCP` (a window's MCP endpoint and its secret, which the
 * extension sets in that window's integrated terminals: a VS Code started from such a terminal
 * inherits another window's, which no program of an agent session may use).
 */
export const HOST_PRIVATE_ENV: readonly RegExp[] = Object.freeze([
  /^ELECTRON_.+$/,
  /^VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)).+$/,
  /^SNAP(|_.*)$/,
  /^GDK_PIXBUF_.+$/,
  /^DSH_BRIDGE_MCP$/,
]);

/** True when `name` is one of the extension host's private variables ({@link HOST_PRIVATE_ENV}). */
export function isHostPrivate(name: string): boolean {
  return HOST_PRIVATE_ENV.some((re) => re.test(name));
}

/** A copy of `env` without the extension host's private variables ({@link HOST_PRIVATE_ENV}). */
export function withoutHostPrivateEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isHostPrivate(name)));
}
