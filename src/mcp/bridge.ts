/**
 * The stdio bridge (bundled as `dist/mcp-bridge.js`, shipped in the VSIX): the program an MCP
 * client launches as its server command. It connects to the VS Code window named by
 * `DSH_BRIDGE_MCP` (set in that window's integrated terminals), presents the window's secret and
 * then copies bytes both ways: stdin → window, window → stdout. Messages go to stderr; the exit
 * code is 0 when the client closed stdin, 1 when no window is reachable, the secret was refused
 * or the window went away, 2 for bad arguments or a malformed `DSH_BRIDGE_MCP`.
 */
import * as net from 'node:net';
import { ENDPOINT_ENV, parseEndpoint } from './discovery';
import { helloLine, readFirstLine } from './handshake';
import { errorMessage } from '../common/errorMessage';

const HELP = `dsh-bridge MCP stdio bridge: DSH Bridge's tools (persistent terminals, code navigation) for any MCP client.

Usage: node mcp-bridge.js [--help]

An MCP client starts this program as its server command and speaks MCP on its stdin/stdout. It
connects to the VS Code window named by the ${ENDPOINT_ENV} environment variable, which DSH Bridge
sets in the integrated terminals of every window whose MCP endpoint is on: start your agent
(Claude Code, Codex CLI, Gemini CLI, ...) in such a terminal and it reaches that window.

Turn the endpoint on in VS Code with "DSH: Connect an Agent (MCP)" (or the setting
dsh.mcp.enabled, machine scope); that command also shows ready-to-paste configuration. It is never
on in Restricted Mode. A terminal opened before the endpoint was on, or before the window was
reloaded, has no or a stale ${ENDPOINT_ENV}: open a new terminal.

Outside VS Code's terminals, set ${ENDPOINT_ENV} yourself: "Copy ${ENDPOINT_ENV} for Another
Client" in "DSH: Connect an Agent (MCP)" copies the line ${ENDPOINT_ENV}=unix:<socket>#<secret>
for the client's environment (it holds the window's secret: keep it private; it stops working
when the window closes or reloads).

In VS Code, opening a session, sending input (dsh_run too), signals and closing ask you first
(allow once, allow this client until the window closes, deny); reads and navigation do not, except
reading a file outside the workspace. The setting dsh.mcp.autoApprove lists clients that are never
asked.

Exit status: 0 when the client closed stdin; 1 when no window is reachable, the window refused
the secret or went away; 2 for a bad argument or a malformed ${ENDPOINT_ENV}.
`;

function fail(message: string, code = 1): never {
  process.stderr.write(`dsh-bridge: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  if (args.length > 0) fail(`unknown argument ${JSON.stringify(args[0])}; see --help`, 2);
  const value = process.env[ENDPOINT_ENV];
  if (!value) {
    fail(
      `${ENDPOINT_ENV} is not set, so no VS Code window is reachable. Start the agent in an integrated terminal of a VS Code window ` +
        `where DSH Bridge's MCP endpoint is on (run "DSH: Connect an Agent (MCP)"), opened after it was turned on. See --help.`,
    );
  }
  let endpoint;
  try {
    endpoint = parseEndpoint(value);
  } catch (e) {
    fail(errorMessage(e), 2);
  }

  const socket = net.createConnection(endpoint.socketPath);
  await new Promise<void>((resolve) => {
    socket.once('connect', resolve);
    socket.once('error', (e: NodeJS.ErrnoException) =>
      fail(
        `no VS Code window is reachable at ${endpoint.socketPath} (${e.code ?? e.message}): the window was closed or reloaded, or its MCP endpoint was turned off. ` +
          'Open a new integrated terminal in the window (after "DSH: Connect an Agent (MCP)") and start the agent there.',
      ),
    );
  });
  socket.write(helloLine(endpoint.secret));
  let first;
  try {
    first = await readFirstLine(socket, 4096, 10_000);
  } catch (e) {
    fail(`the window did not answer the handshake: ${errorMessage(e)}`);
  }
  if (first.line !== 'OK') fail(`the window refused the connection: ${first.line.replace(/^ERROR /, '')}`);

  // From here on the connection is MCP: copy both ways.
  if (first.rest.length > 0) process.stdout.write(first.rest);
  socket.removeAllListeners('error');
  socket.on('error', (e) => fail(`the connection to the window failed: ${e.message}`));
  let clientDone = false;
  socket.on('end', () => {
    if (!clientDone) fail('the VS Code window closed the connection (window closed or reloaded, or the MCP endpoint turned off)');
  });
  socket.on('close', () => process.exit(clientDone ? 0 : 1));
  socket.pipe(process.stdout, { end: false });
  process.stdin.on('end', () => {
    clientDone = true;
  });
  process.stdin.pipe(socket); // the client closing stdin ends the connection
}

void main().catch((e) => fail(errorMessage(e)));
