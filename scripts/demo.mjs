// @ts-check
// `npm run demo`: packages the VSIX, installs it into code-server with VS Code 1.100 (installed on
// first use into ~/.cache/dsh-bridge; `-- --vscode 1.139` or DSH_VSCODE_VERSIONS picks another
// tested version), opens test/fixtures/workspace and runs the scripted agent transcript of
// test/demo/transcript.ts through vscode.lm.invokeTool inside the extension host, printing every
// tool call and result. Then it leaves code-server running and prints the URL to open (Ctrl-C
// stops it); `npm run demo -- --exit` exits after the transcript instead, non-zero if a step or
// check failed; `npm run demo -- --folder DIR` opens DIR instead of the fixture.
// DSH_DEMO_TIMEOUT_MS bounds the build and the transcript (default 5 minutes).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupScope, guard, shutdown } from './lib/cleanup.mjs';
import { describeHost, requestedVersions, resolveHost } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import { FIXTURE_WORKSPACE, ROOT } from './lib/paths.mjs';
import { runInHost } from './lib/run-in-host.mjs';

const argv = process.argv.slice(2);
const exitAfter = argv.includes('--exit');
// `--folder DIR` opens your own workspace instead of the fixture (the transcript runs there).
const folderArg = argv.indexOf('--folder');
const folder = folderArg >= 0 ? path.resolve(argv[folderArg + 1] ?? '') : FIXTURE_WORKSPACE;
if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
  console.error(`demo: --folder ${folder} is not a folder; give the path of a workspace folder, or omit --folder for ${FIXTURE_WORKSPACE}`);
  process.exit(2);
}
const timeoutMs = Number(process.env.DSH_DEMO_TIMEOUT_MS ?? 300_000);
const outcome = { failed: true };

const disarm = guard(timeoutMs, (why) => {
  // The timer's reason ("no report within N s") is the one a slow or loaded machine meets.
  const hint = why.startsWith('no report') ? ' (DSH_DEMO_TIMEOUT_MS, in ms, raises the limit)' : '';
  console.error(`demo: ${why}${hint}`);
  return undefined;
});

try {
  const host = resolveHost(requestedVersions(argv, ['1.100']));
  console.error(`demo: ${describeHost(host)}`);
  const { results, exitCode, server } = await runInHost({
    host,
    testsModule: path.join(ROOT, 'dist/test/demo/transcript.js'),
    folder,
    trusted: true,
    vsix: packageVsix(),
    scope: cleanupScope(),
    outcome,
    counted: { passed: 0, failed: 0 },
  });
  if (!results) throw new Error(`the host exited (code ${exitCode}) before the transcript wrote its results`);
  outcome.failed = results.failed > 0 || exitCode !== 0;
  console.log(`\ntranscript: ${results.passed} checks passed, ${results.failed} failed`);
  if (exitAfter || !server) await shutdown(outcome.failed ? 1 : 0);
  else {
    disarm();
    const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
    console.log(`\nDSH Bridge is installed in code-server. Open ${url}`);
    console.log(`(from another machine: ssh -L ${server.port}:127.0.0.1:${server.port} <this host>). Ctrl-C stops it.`);
    // `exited` never rejects: it resolves with the exit code or signal.
    void server.exited.then((c) => {
      console.error(`demo: code-server exited (${c})`);
      void shutdown(1);
    });
  }
} catch (err) {
  console.error(`demo: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await shutdown(1);
}
