// @ts-check
// Building and packaging the extension the hosts install.
import * as fs from 'node:fs';
import { VSIX } from './paths.mjs';
import { run } from './processes.mjs';

/**
 * Entries the VSIX must hold: the bundle, and node-pty's JS and the native module of this
 * machine's platform (`npm run package` copies that platform's VSIX to {@link VSIX}: Linux x64's
 * holds node-pty as built here, macOS's node-pty's own prebuilt binary).
 */
const VSIX_MUST_HOLD = [
  'extension/dist/extension.js',
  'extension/node_modules/node-pty/lib/index.js',
  process.platform === 'linux'
    ? 'extension/node_modules/node-pty/build/Release/pty.node'
    : `extension/node_modules/node-pty/prebuilds/${process.platform}-${process.arch}/pty.node`,
];

/**
 * Builds every bundle (extension and in-host tests) and packages this machine's platform's VSIX
 * (`npm run package -- --target host`, which also copies it to {@link VSIX}), then checks that
 * {@link VSIX} holds {@link VSIX_MUST_HOLD}. Returns the VSIX path; throws if the build
 * fails or an entry is missing.
 */
export function packageVsix() {
  console.error('host: npm run package -- --target host');
  run('npm', ['run', '--silent', 'package', '--', '--target', 'host']);
  const zip = fs.readFileSync(VSIX); // zip entry names are stored uncompressed
  const missing = VSIX_MUST_HOLD.filter((name) => !zip.includes(name));
  if (missing.length > 0) throw new Error(`${VSIX} lacks ${missing.join(', ')}`);
  return VSIX;
}
