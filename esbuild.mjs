// Bundles the extension (dist/extension.js), the MCP stdio bridge (dist/mcp-bridge.js), the in-host integration suite
// (dist/test/integration/index.js plus one bundle per test/integration/**/*.test.ts) and the demo
// transcript (dist/test/demo/transcript.js). `vscode` and `node-pty` stay external: vscode is
// provided by the host, node-pty is a native module shipped in the VSIX's node_modules. Test
// bundles are never minified, so failures keep readable stacks even in a --production build.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const production = process.argv.includes('--production');

/** @satisfies {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The sandbox runtime is ES modules that find their own helper binaries (import.meta.url): shipped as it is.
  external: ['vscode', 'node-pty', '@anthropic-ai/sandbox-runtime'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

await esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' });
// The wiki-link index's note parser, run in a worker thread next to dist/extension.js (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/lsp/wikilinks/noteParseWorker.ts'], outfile: 'dist/noteParseWorker.js' });
// The panel mirror's terminal emulator, run in a worker thread per mirrored session (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/terminal/panel/mirrorEmulatorWorker.ts'], outfile: 'dist/mirrorEmulatorWorker.js' });
// The model-text renderer (send results, reads), run in a worker thread per backend (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/terminal/output/screenTextWorker.ts'], outfile: 'dist/screenTextWorker.js' });
// The terminal auto-approval judge (tree-sitter-bash and the rules), run in a worker thread (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/approval/approvalWorker.ts'], outfile: 'dist/approvalWorker.js' });
// Secret redaction of what agents read (secretlint's rules and ours), run in bounded worker threads (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/terminal/secrets/redactionWorker.ts'], outfile: 'dist/redactionWorker.js' });
// The MCP stdio bridge: a plain Node program an MCP client launches (shipped in the VSIX).
await esbuild.build({ ...common, entryPoints: ['src/mcp/bridge.ts'], outfile: 'dist/mcp-bridge.js' });

// Rebuilt from scratch so a deleted test never lingers as a stale bundle.
fs.rmSync('dist/test', { recursive: true, force: true });
const integrationTests = /** @type {string[]} */ (fs.readdirSync('test/integration', { recursive: true }))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join('test/integration', f));
await esbuild.build({
  ...common,
  external: [...common.external, 'mocha'],
  sourcemap: true,
  minify: false,
  entryPoints: ['test/integration/index.ts', ...integrationTests, 'test/demo/transcript.ts'],
  outbase: 'test',
  outdir: 'dist/test',
});
