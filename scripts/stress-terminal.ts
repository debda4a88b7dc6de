/**
 * `npm run stress`: reliability of the terminal service under load (not part of `npm test`).
 * Opens SESSIONS sessions at once on the real pty-bash backend, runs mixed sends, reads, signals
 * and closes for DURATION_MS, closes everything, then checks that no session, process or file
 * descriptor is left behind. Prints the figures; exits 1 when something leaked.
 * Environment: DSH_STRESS_SESSIONS (default 50), DSH_STRESS_MS (default 20000).
 */
import * as fs from 'node:fs';
import * as pty from 'node-pty';
import { resolveTerminalConfig } from '../src/terminal/config';
import { sessionProcesses } from '../src/proc/sessions';
import { PtyBashBackend } from '../src/terminal/bash/ptyBash';
import { TerminalService } from '../src/terminal/service';
import { errorMessage } from '../src/common/errorMessage';
import { SILENT_LOG } from '../src/common/log';

const SESSIONS = Number(process.env.DSH_STRESS_SESSIONS ?? 50);
const DURATION_MS = Number(process.env.DSH_STRESS_MS ?? 20_000);

const fdCount = () => fs.readdirSync('/proc/self/fd').length;
const counts: Record<string, number> = {};
const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);

async function main(): Promise<void> {
  const log = { ...SILENT_LOG, warn: (m: string) => count(`warn: ${m.replace(/\d+/g, 'N')}`) };
  const service = new TerminalService(log);
  const config = resolveTerminalConfig({ quietThresholdMs: 2000 });
  service.registerBackend(new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('stress');
  const fdsBefore = fdCount();
  const rssBefore = process.memoryUsage().rss;

  let t = Date.now();
  const opened = await Promise.allSettled(Array.from({ length: SESSIONS }, () => service.open(owner)));
  const ids = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value.sessionId] : []));
  const shellPids = new Map<string, number>();
  console.log(`opened ${ids.length}/${SESSIONS} sessions at once in ${Date.now() - t} ms`);

  const commands = ['echo hi', 'seq 1 2000', 'sleep 0.3; echo late', 'sleep 5', 'cat', 'false', 'printf x'];
  const deadline = Date.now() + DURATION_MS;
  const worker = async (id: string) => {
    const first = await service.send(owner, id, { input: 'echo $$' });
    if (!/^\d+$/.test(first.output)) throw new Error(`${id}: echo $$ gave ${JSON.stringify(first)}`);
    shellPids.set(id, Number(first.output));
    while (Date.now() < deadline) {
      const roll = Math.random();
      try {
        if (roll < 0.6) {
          const r = await service.send(owner, id, { input: commands[Math.floor(Math.random() * commands.length)], timeoutMs: 1500 });
          count(`send ${r.waitReason}${r.waiting ? `/${r.waiting}` : ''}`);
        } else if (roll < 0.8) {
          service.read(owner, id, { offset: Math.floor(Math.random() * 100), count: 200 });
          count('read');
        } else {
          service.signal(owner, id, 'SIGINT');
          count('signal');
        }
      } catch (error) {
        count(`error ${(error as { code?: string }).code ?? errorMessage(error)}`);
      }
    }
  };
  t = Date.now();
  await Promise.all(ids.map(worker));
  console.log(`mixed operations for ${Date.now() - t} ms:`);
  for (const [what, n] of Object.entries(counts).sort()) console.log(`  ${what}: ${n}`);

  t = Date.now();
  const closed = await Promise.allSettled(ids.map((id) => service.close(owner, id, 'stress done')));
  console.log(`closed ${closed.filter((c) => c.status === 'fulfilled').length}/${ids.length} in ${Date.now() - t} ms`);
  await new Promise((r) => setTimeout(r, 500));

  const leftSessions = service.list(owner).length;
  const leftProcesses = [...shellPids.values()].flatMap((pid) => sessionProcesses(pid));
  const fdsAfter = fdCount();
  console.log(`left behind: ${leftSessions} sessions, ${leftProcesses.length} processes, fds ${fdsBefore} → ${fdsAfter}`);
  console.log(`rss ${(rssBefore / 2 ** 20).toFixed(1)} MiB → ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB`);
  const leaked = leftSessions > 0 || leftProcesses.length > 0 || fdsAfter > fdsBefore || ids.length < SESSIONS;
  console.log(leaked ? 'stress: LEAK or failed opens' : 'stress: clean');
  process.exit(leaked ? 1 : 0);
}

void main();
