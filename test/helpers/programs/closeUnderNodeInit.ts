// A stand-in extension host that runs as pid 1 of its own pid namespace (started by the test
// under `unshare --pid --fork --mount-proc`), the way code-server runs in a container started
// without an init: Node reaps only the children it spawned itself, so every orphan reparented to
// it stays a zombie. For the /proc probe and for the ps(1) path it opens a session, starts a job
// and a nohup job, closes the session and prints one JSON line per path:
// {"probe", "closed", "error", "left"}, where `left` lists the state letter of each of the
// shell's and jobs' pids that still has a /proc entry (a zombie is "Z").
import * as fs from 'node:fs';
import * as os from 'node:os';
import { resolveTerminalConfig } from '../../../src/terminal/config';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { TerminalService } from '../../../src/terminal/service';
import { MemoryLog, nodePty } from '../terminalHarness';

function state(pid: number): string | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

async function closeOne(probe: boolean): Promise<void> {
  const log = new MemoryLog();
  const service = new TerminalService(log);
  const config = resolveTerminalConfig({});
  service.registerBackend(new PtyBashBackend(nodePty, () => config, log, { probe }));
  const owner = service.createOwner('test');
  const { sessionId } = await service.open(owner, { cwd: os.tmpdir() });
  const r = await service.send(owner, sessionId, { input: 'sleep 300 & a=$!; nohup sleep 301 >/dev/null 2>&1 & echo "$$ $a $!"' });
  const pids = r.output.trim().split('\n').pop()!.split(' ').map(Number);
  let closed = false;
  let error: string | undefined;
  try {
    closed = await service.close(owner, sessionId);
  } catch (e) {
    error = String(e);
  }
  const failures = log.lines.filter((l) => /survived SIGKILL|cleanup failed/.test(l));
  const left = pids.map(state).filter((s) => s !== undefined);
  process.stdout.write(JSON.stringify({ probe, closed, error: error ?? (failures.join('\n') || undefined), left }) + '\n');
}

void (async () => {
  await closeOne(true);
  await closeOne(false);
  process.exit(0);
})();
