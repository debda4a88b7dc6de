// Bundles the extension (dist/extension.js) and the in-host integration suite
// (dist/test/integration/index.js). `vscode` and `node-pty` stay external: vscode is provided
// by the host, node-pty is a native module shipped in the VSIX's node_modules.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'node-pty'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

await esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' });
await esbuild.build({
  ...common,
  external: [...common.external, 'mocha'],
  entryPoints: ['test/integration/index.ts'],
  outfile: 'dist/test/integration/index.js',
});
