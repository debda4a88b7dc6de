// @ts-check
// `node scripts/bench-lsp.mjs`: bundles test/bench/lsp.ts to dist/bench/lsp.js, packages and
// installs the VSIX into the real host (code-server with VS Code 1.100, `--vscode` or
// DSH_VSCODE_VERSIONS picks another; desktop VS Code with DSH_VSCODE_EXECUTABLE) on
// test/fixtures/workspace and prints, per position, the median time of `dsh_lsp` findReferences
// through vscode.lm.invokeTool next to a direct vscode.executeReferenceProvider call, and their
// ratio. DSH_BENCH_RUNS sets the runs (default 30). Do not run it at the same time as
// `npm run test:integration` (one host at a time).
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { cleanupScope, guard, shutdown } from './lib/cleanup.mjs';
import { describeHost, requestedVersions, resolveHosts } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import { FIXTURE_WORKSPACE, ROOT } from './lib/paths.mjs';
import { runInHost } from './lib/run-in-host.mjs';

const outcome = { failed: true };
guard(Number(process.env.DSH_BENCH_TIMEOUT_MS ?? 600_000), (why) => `bench-lsp: ${why}`);

try {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/bench/lsp.ts')],
    outfile: path.join(ROOT, 'dist/bench/lsp.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const [host] = resolveHosts(requestedVersions(process.argv.slice(2), ['1.100']));
  console.error(`bench-lsp: ${describeHost(host)}`);
  const { results, exitCode } = await runInHost({
    host,
    testsModule: path.join(ROOT, 'dist/bench/lsp.js'),
    folder: FIXTURE_WORKSPACE,
    trusted: true,
    vsix: packageVsix(),
    scope: cleanupScope(),
    outcome,
    counted: { passed: 0, failed: 0 },
  });
  outcome.failed = !results || results.failed > 0 || exitCode !== 0;
  await shutdown(outcome.failed ? 1 : 0, outcome.failed ? `bench-lsp failed (exit ${exitCode})` : 'bench-lsp done');
} catch (err) {
  await shutdown(1, `bench-lsp: ${err instanceof Error ? err.stack ?? err.message : err}`);
}
