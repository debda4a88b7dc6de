/** Where the extension looks for node-pty: its own packaged copy, then VS Code's. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PtyLoadResult, loadNodePty } from '../../terminal/session/nodePty';

/**
 * Loads node-pty: the copy packaged in the VSIX first; if it fails (e.g. built for another
 * Node ABI or platform), VS Code's own at `<vscode.env.appRoot>/node_modules/node-pty`. The log
 * says which one loaded, its native file and this machine's platform (each platform's VSIX holds
 * its own: `build/Release/pty.node` on Linux x64, `prebuilds/darwin-*` on macOS), and why a
 * fallback happened.
 * @throws Error listing both failures when neither loads.
 */
export function loadExtensionNodePty(log: vscode.LogOutputChannel): PtyLoadResult {
  const result = loadNodePty([
    { label: 'packaged with DSH Bridge', module: 'node-pty' },
    { label: "VS Code's own", module: path.join(vscode.env.appRoot, 'node_modules', 'node-pty') },
  ]);
  for (const failure of result.failures) log.warn(`node-pty fallback: ${failure}`);
  log.info(`node-pty loaded: ${result.label}, ${result.binary ?? 'native file unknown'}, on ${process.platform}-${process.arch}`);
  return result;
}
