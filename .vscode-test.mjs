// @ts-check
// The integration suite through @vscode/test-cli, for contributors with a desktop VS Code:
// `npm run test:desktop` (= `npm run package && vscode-test`; `-- --label vscode-1.100` picks one
// version). test-cli downloads each VS Code into .vscode-test/ (it needs Microsoft's update server;
// `npm run test:integration` is the offline launcher, on code-server) and runs the bundled
// suite (dist/test/integration, built by `npm run package`) against the packaged VSIX, with the
// test-only extension test/fixtures/api-consumer under development, as the offline launcher does.
// Versions fit node 20: @vscode/test-cli 0.0.12 and @vscode/test-electron 2.5 (later releases
// need node 22).
//
// Only the trusted suite runs here: @vscode/test-electron's runTests always passes
// --disable-workspace-trust, so Restricted Mode cannot be opened through it. The Restricted Mode
// suite (*.untrusted.test.ts) runs in `npm run test:integration`, which starts VS Code itself
// (scripts/lib/desktop.mjs with DSH_VSCODE_EXECUTABLE=/path/to/code, or code-server).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@vscode/test-cli';

const root = path.dirname(fileURLToPath(import.meta.url));
// test-electron's profile folders (under the current directory, the repository root for npm
// scripts): test-cli installs `installExtensions` there and VS Code runs with them.
const profile = path.join(process.cwd(), '.vscode-test');

/** @type {import('@vscode/test-cli').TestConfiguration} */
const suite = {
  files: 'dist/test/integration/**/!(*.untrusted).test.js',
  extensionDevelopmentPath: path.join(root, 'test/fixtures/api-consumer'),
  workspaceFolder: path.join(root, 'test/fixtures/workspace'),
  // DSH Bridge comes from the VSIX, never from the Marketplace (api-consumer depends on it).
  installExtensions: [path.join(root, 'dist/dsh-bridge.vsix')],
  skipExtensionDependencies: true,
  mocha: { ui: 'bdd', timeout: 60_000 },
  env: {
    // Where the suite checks that DSH Bridge runs from the installed VSIX, and that no terminal
    // content reaches the profile on disk.
    DSH_EXTENSIONS_DIR: path.join(profile, 'extensions'),
    DSH_USER_DATA_DIR: path.join(profile, 'user-data'),
    DSH_TEST_TRUST: 'trusted',
  },
};

// The oldest VS Code engines.vscode allows, and the newest tested (the same as the offline hosts).
export default defineConfig([
  { ...suite, label: 'vscode-1.100', version: '1.100.3' },
  { ...suite, label: 'vscode-1.139', version: '1.139.1' },
]);
