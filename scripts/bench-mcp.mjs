// `node scripts/bench-mcp.mjs`: bundles test/bench/mcp.ts to dist/bench/mcp.js, packages and
// installs the VSIX into the real host (code-server, or desktop VS Code with
// DSH_VSCODE_EXECUTABLE) on test/fixtures/workspace and prints the median MCP round trip (SDK
// Client -> the shipped stdio bridge -> the window's socket) of dsh_lsp findReferences and of a
// `true` send next to the same call through vscode.lm.invokeTool, and their ratio.
// DSH_BENCH_RUNS sets the runs (default 30). Do not run it at the same time as
// `npm run test:integration` (one host at a time).
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { FIXTURE_WORKSPACE, guard, ROOT, runInHost, shutdown } from './lib/host.mjs';

const state = { failed: true, counted: { passed: 0, failed: 0 } };
guard(Number(process.env.DSH_BENCH_TIMEOUT_MS ?? 600_000), (why) => `bench-mcp: ${why}`);

try {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/bench/mcp.ts')],
    outfile: path.join(ROOT, 'dist/bench/mcp.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const { results, exitCode } = await runInHost({ testsModule: path.join(ROOT, 'dist/bench/mcp.js'), folder: FIXTURE_WORKSPACE, state });
  state.failed = !results || results.failed > 0 || exitCode !== 0;
  await shutdown(state.failed ? 1 : 0, state.failed ? `bench-mcp failed (exit ${exitCode})` : 'bench-mcp done');
} catch (err) {
  await shutdown(1, `bench-mcp: ${err?.stack ?? err}`);
}
