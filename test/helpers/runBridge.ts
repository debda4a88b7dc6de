// Running the MCP stdio bridge (src/mcp/bridge.ts) as a client launches it: a program of its own,
// with an environment that names the window's endpoint (or does not) and JSON-RPC on stdin.
import { ProgramRun, runProgram } from './runProgram';

/**
 * Runs the bridge with this process's Node (`process.execPath`; `ELECTRON_RUN_AS_NODE=1` makes an
 * Electron or code-server executable behave as Node): `nodeArgs` name the bridge (`['-r',
 * 'tsx/cjs', 'src/mcp/bridge.ts']` from source, `[dist/mcp-bridge.js]` as installed), `env` is
 * added to `PATH` only, `stdin` is written and closed. Resolves when the bridge has exited.
 */
export function runBridge(nodeArgs: readonly string[], env: Record<string, string | undefined>, stdin = ''): Promise<ProgramRun> {
  return runProgram(process.execPath, nodeArgs, { PATH: process.env.PATH, ELECTRON_RUN_AS_NODE: '1', ...env }, stdin);
}
