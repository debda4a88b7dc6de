// @ts-check
// `node scripts/bench-in-host.mjs NAME [--vscode VERSION]`: bundles test/bench/NAME.ts to
// dist/bench/NAME.js, packages and installs the VSIX into the real host (code-server with VS Code
// 1.100; `--vscode` or DSH_VSCODE_VERSIONS picks another; desktop VS Code with
// DSH_VSCODE_EXECUTABLE) on test/fixtures/workspace and lets the benchmark print its figures:
//   lsp  `dsh_lsp` findReferences and `dsh_symbols` by name through vscode.lm.invokeTool next to
//        the direct vscode.execute*Provider call, with their ratio (`npm run bench:lsp`);
//   mcp  the MCP round trip (SDK Client -> the shipped stdio bridge -> the window's socket) of
//        dsh_lsp findReferences and of a `true` send next to the same call through
//        vscode.lm.invokeTool, with their ratio (`npm run bench:mcp`);
//   host the extension host's responsiveness (a no-op tool call every 50 ms and the event-loop
//        lag) while sessions print pathological output and notes are indexed, and `true` through
//        invokeTool next to a no-op call (`npm run bench:host`); it writes notes into its
//        workspace, so it runs on a temporary copy of the fixture workspace.
// DSH_BENCH_RUNS sets the runs (default 30). Do not run it at the same time as
// `npm run test:integration` (one host at a time).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupScope, guard, shutdown } from './lib/cleanup.mjs';
import { describeHost, requestedVersions, resolveHost } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import { FIXTURE_WORKSPACE, ROOT } from './lib/paths.mjs';
import { runInHost } from './lib/run-in-host.mjs';

const name = process.argv[2] ?? '';
const entry = path.join(ROOT, 'test/bench', `${name}.ts`);
if (!/^[a-z]+$/.test(name) || !fs.existsSync(entry)) {
  const known = fs
    .readdirSync(path.join(ROOT, 'test/bench'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  console.error(`usage: node scripts/bench-in-host.mjs NAME [--vscode VERSION]; NAME is one of ${known.join(', ')}`);
  process.exit(2);
}
const label = `bench-${name}`;

/** A temporary copy of the fixture workspace, removed when the run ends. */
function workspaceCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-workspace-'));
  fs.cpSync(FIXTURE_WORKSPACE, dir, { recursive: true });
  scope.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const outcome = { failed: true };
const scope = cleanupScope();
guard(Number(process.env.DSH_BENCH_TIMEOUT_MS ?? (name === 'host' ? 2_400_000 : 600_000)), (why) => `${label}: ${why}`);

try {
  const outfile = path.join(ROOT, 'dist/bench', `${name}.js`);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const host = resolveHost(requestedVersions(process.argv.slice(3), ['1.100']));
  console.error(`${label}: ${describeHost(host)}`);
  const { results, exitCode } = await runInHost({
    host,
    testsModule: outfile,
    folder: name === 'host' ? workspaceCopy() : FIXTURE_WORKSPACE,
    trusted: true,
    vsix: packageVsix(),
    scope,
    outcome,
    counted: { passed: 0, failed: 0 },
  });
  outcome.failed = !results || results.failed > 0 || exitCode !== 0;
  await shutdown(outcome.failed ? 1 : 0, outcome.failed ? `${label} failed (exit ${exitCode})` : `${label} done`);
} catch (err) {
  await shutdown(1, `${label}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
