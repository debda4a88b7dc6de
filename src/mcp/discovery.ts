/**
 * How an MCP client finds a window's endpoint: one environment variable, {@link ENDPOINT_ENV},
 * holding `unix:<socket path>#<secret>`. The extension sets it in the integrated terminals of its
 * window (VS Code's `environmentVariableCollection`), so an agent started in one of them, and the
 * stdio bridge it launches, reach that window. The secret is 64 hex digits (32 random bytes).
 */

/** Name of the environment variable that names a window's socket and secret. */
export const ENDPOINT_ENV = 'DSH_BRIDGE_MCP';

/** A window's MCP endpoint: where its Unix socket is and the secret a client must present. */
export interface Endpoint {
  /** Absolute path of the Unix domain socket. */
  socketPath: string;
  /** The window's secret: 64 lower-case hex digits. */
  secret: string;
}

const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** The value of {@link ENDPOINT_ENV} for `endpoint`. */
export function formatEndpoint(endpoint: Endpoint): string {
  return `unix:${endpoint.socketPath}#${endpoint.secret}`;
}

/**
 * Parses a value of {@link ENDPOINT_ENV}. The secret follows the last `#`, so a socket path may
 * itself hold `#`.
 * @throws Error saying what the value should look like when it is not `unix:<absolute path>#<64 hex digits>`.
 *   The message shows the value up to its last `#` (at most 200 characters) and never what
 *   follows it, which may be the window's secret; a value that starts with `DSH_BRIDGE_MCP=` (the
 *   line the "Copy DSH_BRIDGE_MCP for Another Client" action copies) is told to drop that name.
 */
export function parseEndpoint(value: string): Endpoint {
  const hash = value.lastIndexOf('#');
  const socketPath = value.startsWith('unix:') && hash > 5 ? value.slice(5, hash) : '';
  const secret = hash >= 0 ? value.slice(hash + 1) : '';
  if (!socketPath.startsWith('/') || !SECRET_PATTERN.test(secret)) {
    const shown = hash >= 0 ? `${value.slice(0, Math.min(hash, 200))}#…` : value.slice(0, 200);
    const assignment = value.startsWith(`${ENDPOINT_ENV}=`) ? `; give the value without the leading "${ENDPOINT_ENV}="` : '';
    throw new Error(
      `${ENDPOINT_ENV} must look like unix:<absolute socket path>#<64 hex digits> (got ${JSON.stringify(shown)})${assignment}`,
    );
  }
  return { socketPath, secret };
}
