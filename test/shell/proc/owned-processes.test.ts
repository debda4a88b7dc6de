/**
 * The /proc readers behind a session's ports and background processes: the socket tables'
 * addresses, the listening sockets of real processes, and the identity of a marked process by its
 * start time, so a pid reused by an unrelated process is never taken for the session's. Real processes.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as dgram from 'node:dgram';
import * as net from 'node:net';
import * as proc from '../../../src/proc/procProbe';
import { hexAddress, parseListening } from '../../../src/proc/netTables';
import { ListeningSocketReader, describeSocket } from '../../../src/proc/listeningSockets';
import { OwnedProcesses, isSame, signalIfSame } from '../../../src/proc/ownedProcesses';
import { readStat } from '../../../src/proc/stat';
import { alive } from '../../helpers/processes';
import { until } from '../../helpers/wait';

describe('socket tables (/proc/net/tcp, tcp6, udp, udp6)', () => {
  it('reads addresses as the kernel prints them (words in host byte order) and writes IPv6 as RFC 5952 does', () => {
    assert.equal(hexAddress('0100007F', 4), '127.0.0.1');
    assert.equal(hexAddress('00000000', 4), '0.0.0.0');
    assert.equal(hexAddress('00000000000000000000000001000000', 6), '::1');
    assert.equal(hexAddress('00000000000000000000000000000000', 6), '::');
    assert.equal(hexAddress('0000000000000000FFFF00000100007F', 6), '::ffff:127.0.0.1');
    assert.equal(hexAddress('B80D0120000000000000000001000000', 6), '2001:db8::1');
    assert.equal(hexAddress('0100007', 4), undefined);
  });

  it('takes TCP LISTEN and unconnected UDP sockets, and nothing else', () => {
    const tcp = { file: 'tcp', protocol: 'tcp', family: 4 } as const;
    const udp = { file: 'udp', protocol: 'udp', family: 4 } as const;
    const listen =
      '   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0';
    assert.deepEqual(parseListening(listen, tcp), { protocol: 'tcp', family: 4, address: '127.0.0.1', port: 5173, inode: 4242 });
    assert.equal(parseListening(listen.replace(' 0A ', ' 01 '), tcp), undefined, 'established');
    const bound = '  12: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 777 2 0000000000000000 0';
    assert.equal(parseListening(bound, udp)?.port, 5353);
    assert.equal(parseListening(bound.replace('00000000:0000 07', '0100007F:0035 07'), udp), undefined, 'connected UDP');
    assert.equal(parseListening('  sl  local_address rem_address   st tx_queue', tcp), undefined);
  });
});

(proc.probeAvailable() ? describe : describe.skip)('listening sockets and marked processes of real processes (Linux /proc)', function () {
  this.timeout(60_000);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('finds the TCP (IPv4, IPv6) and UDP sockets a process listens on, by its descriptors, not its connected ones', async () => {
    const v4 = net.createServer();
    const v6 = net.createServer();
    const udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const client = net.connect((v4.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    try {
      const look = await new ListeningSocketReader().look([{ pid: process.pid, startTime: readStat(process.pid)!.startTime }]);
      const mine = look.sockets.map((s) => `${s.protocol} ${s.address}:${s.port}`);
      assert.ok(mine.includes(`tcp 127.0.0.1:${(v4.address() as net.AddressInfo).port}`), mine.join(', '));
      assert.ok(mine.includes(`tcp ::1:${(v6.address() as net.AddressInfo).port}`), mine.join(', '));
      assert.ok(mine.includes(`udp 127.0.0.1:${udp.address().port}`), mine.join(', '));
      assert.ok(!mine.some((s) => s.endsWith(`:${client.localPort}`)), 'the connected socket is not listening');
      assert.ok(look.sockets.every((s) => s.pid === process.pid));
      assert.match(describeSocket(look.sockets.find((s) => s.address === '::1')!), /^tcp \[::1\]:\d+ \(pid \d+, /);
      const stale = await new ListeningSocketReader().look([{ pid: process.pid, startTime: readStat(process.pid)!.startTime - 1 }]);
      assert.deepEqual(stale.sockets, [], 'a pid whose start time changed is another process');
    } finally {
      client.destroy();
      v4.close();
      v6.close();
      udp.close();
    }
  });

  it('a process with the mark that started before the session is not the session’s (a reused pid), nor signalled; one started since is', async () => {
    const mark = `DSH_SESSION=test-${process.pid}-${Date.now()}`;
    const [name, value] = mark.split('=') as [string, string];
    const start = (args: string[], env: NodeJS.ProcessEnv) => {
      const child = spawn('sleep', args, { stdio: 'ignore', env: { ...process.env, ...env } });
      children.push(child);
      return child;
    };
    const earlier = start(['300'], { [name]: value });
    // The clock ticks 100 times a second: the session's shell starts at a later tick.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shell = start(['300'], {});
    await until('a later start time', () => readStat(shell.pid!)!.startTime > readStat(earlier.pid!)!.startTime, 5000);
    const later = start(['301'], { [name]: value });
    const unmarked = start(['302'], {});
    await until('all started', () => [earlier, later, unmarked].every((c) => readStat(c.pid!)?.comm === 'sleep'));
    const owned = new OwnedProcesses(shell.pid!, readStat(shell.pid!)!.startTime, mark);
    const found = (await owned.scan()).processes.map((p) => p.pid);
    assert.ok(found.includes(later.pid!), 'marked, started since: the session’s');
    assert.ok(!found.includes(earlier.pid!), 'marked, started before the session: never the session’s');
    assert.ok(!found.includes(unmarked.pid!), 'not marked');
    // A recorded start time that is not the process's: the pid now names another process.
    const faked = { pid: later.pid!, startTime: readStat(later.pid!)!.startTime - 1 };
    assert.equal(isSame(faked), false);
    assert.equal(signalIfSame(faked, 'SIGKILL'), false);
    assert.ok(alive(later.pid!), 'not signalled');
  });
});

(proc.probeAvailable() ? describe : describe.skip)('a socket looked at before it listens (Linux /proc)', function () {
  this.timeout(60_000);
  it('is looked for again, and found once it listens', async () => {
    const child = spawn(
      'python3',
      [
        '-c',
        "import socket, sys, time\ns = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1], flush=True); sys.stdin.readline(); s.listen(1); print('listening', flush=True); time.sleep(60)",
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await until('bound', () => out.includes('\n'));
      const port = Number(out.split('\n')[0]);
      const reader = new ListeningSocketReader();
      const ref = { pid: child.pid!, startTime: readStat(child.pid!)!.startTime };
      assert.deepEqual((await reader.look([ref])).sockets, [], 'bound, not listening: in no table');
      child.stdin.write('\n');
      await until('listening', () => out.includes('listening'));
      await until('found again', async () => (await reader.look([ref], true)).sockets.some((s) => s.port === port), 5000, 100);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

(proc.probeAvailable() ? describe : describe.skip)('the cost of looking for marked processes (Linux /proc)', function () {
  this.timeout(120_000);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('a second scan reads the /proc files of no process the first one classified, and still finds what was started since', async () => {
    const UNRELATED = 300;
    const mark = `DSH_SESSION=cost-${process.pid}-${Date.now()}`;
    const [name, value] = mark.split('=') as [string, string];
    const start = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const child = spawn('sleep', args, { stdio: 'ignore', env: { ...process.env, ...env } });
      children.push(child);
      return child;
    };
    const shell = start(['300']);
    await until('the shell runs', () => readStat(shell.pid!) !== undefined);
    for (let i = 0; i < UNRELATED; i++) start(['300']);
    const marked = start(['303'], { [name]: value });
    await until('all started', () => children.every((c) => readStat(c.pid!)?.comm === 'sleep'), 20_000);
    const owned = new OwnedProcesses(shell.pid!, readStat(shell.pid!)!.startTime, mark);

    const first = await owned.scan();
    assert.ok(
      first.processes.some((p) => p.pid === marked.pid),
      'the marked process is found',
    );
    const before = { ...owned.scanReads };
    assert.ok(
      before.environ >= UNRELATED,
      `the first scan read the environment of each process started since the shell (${before.environ})`,
    );

    const later = start(['304'], { [name]: value });
    await until('started', () => readStat(later.pid!)?.comm === 'sleep');
    const second = await owned.scan();
    const environ = owned.scanReads.environ - before.environ;
    const stat = owned.scanReads.stat - before.stat;
    assert.ok(
      second.processes.some((p) => p.pid === marked.pid),
      'still found',
    );
    assert.ok(
      second.processes.some((p) => p.pid === later.pid),
      'a marked process started since the first scan is found',
    );
    // Other programs on the machine may start a few processes between the scans; the
    // UNRELATED ones are classified already and cost nothing.
    assert.ok(
      environ < UNRELATED / 10,
      `the second scan read ${environ} environments (${UNRELATED} unrelated processes already classified)`,
    );
    assert.ok(stat < UNRELATED / 10, `the second scan read ${stat} stat files (${UNRELATED} unrelated processes already classified)`);
  });
});
