// A stand-in extension host for the watchdog test (test/shell/lsp/stdio.test.ts): it spawns the
// fake language server (with a child of its own) under the watchdog, prints
// {"pgid", "server", "child"} as one JSON line once the server reported its child, then idles
// until it is killed. The test SIGKILLs this process and checks the whole group is gone.
import * as path from 'node:path';
import { spawnGuarded } from '../../../src/lsp/stdio/watchdog';

const fake = path.resolve(__dirname, '../../fixtures/lsp-servers/fake-lsp.js');
const g = spawnGuarded(process.execPath, [fake, '--child'], { cwd: __dirname, graceSeconds: 1 });
const timer = setInterval(() => {
  const line = g.stderrTail().find((l) => l.startsWith('child-pid '));
  if (!line) return;
  clearInterval(timer);
  process.stdout.write(JSON.stringify({ pgid: g.pgid, watchdog: g.child.pid, child: Number(line.split(' ')[1]) }) + '\n');
}, 20);
setInterval(() => undefined, 60_000);
