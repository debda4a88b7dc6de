/**
 * The MCP endpoint under plain Node: the socket's folder and permissions on the real file system,
 * the secret handshake on a real Unix socket, and the stdio bridge (src/mcp/bridge.ts, run as a
 * child process) driven by the MCP SDK's real `Client` against a real SDK `Server`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ENDPOINT_ENV, formatEndpoint, parseEndpoint } from '../../../src/mcp/discovery';
import { EndpointServer, MAX_CONNECTIONS, MAX_PENDING_HANDSHAKES } from '../../../src/mcp/endpointServer';
import { helloLine } from '../../../src/mcp/handshake';
import { MAX_SOCKET_PATH_BYTES, chooseSocketPath, socketDirCandidates } from '../../../src/mcp/socketPath';
import { MAX_MESSAGE_BYTES, MAX_REQUESTS_IN_FLIGHT, SocketTransport } from '../../../src/mcp/socketTransport';
import { MAX_INPUT_BYTES } from '../../../src/terminal/input/sendAdmission';
import { onLines } from '../../helpers/mcpLineClient';
import { runBridge } from '../../helpers/runBridge';
import { sleep, until } from '../../helpers/wait';
import { SILENT_LOG } from '../../../src/common/log';

/** The bridge run from source, through tsx. */
const FROM_SOURCE = ['-r', 'tsx/cjs', path.resolve(__dirname, '../../../src/mcp/bridge.ts')];
const quiet = SILENT_LOG;

/** The first line the endpoint answers to `hello` (then the connection's end). */
function answerTo(socketPath: string, hello: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection(socketPath, () => s.write(hello));
    let got = '';
    s.on('data', (d) => (got += String(d)));
    s.on('close', () => resolve(got));
    s.on('error', reject);
  });
}

describe('MCP endpoint (plain Node)', function () {
  this.timeout(30_000);
  let tmp: string;
  let servers: EndpointServer[];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-mcp-'));
    servers = [];
  });
  afterEach(async () => {
    for (const s of servers) await s.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function listening(onConnection: (socket: net.Socket, rest: Buffer) => void = () => undefined): Promise<EndpointServer> {
    const server = new EndpointServer(chooseSocketPath([path.join(tmp, 'mcp')]), onConnection, quiet);
    servers.push(server);
    await server.listen();
    return server;
  }

  it('listens on a 0600 socket in a 0700 folder, and close removes the socket', async () => {
    const server = await listening();
    assert.equal(fs.statSync(path.dirname(server.socketPath)).mode & 0o777, 0o700);
    const st = fs.statSync(server.socketPath);
    assert.ok(st.isSocket());
    assert.equal(st.mode & 0o777, 0o600);
    await server.close();
    assert.equal(fs.existsSync(server.socketPath), false);
  });

  it('narrows a folder of ours with a wider mode to 0700; refuses a symbolic link and a folder of another user', () => {
    const wide = path.join(tmp, 'wide');
    fs.mkdirSync(wide, { mode: 0o777 });
    fs.chmodSync(wide, 0o777);
    chooseSocketPath([wide]);
    assert.equal(fs.statSync(wide).mode & 0o777, 0o700);

    const link = path.join(tmp, 'link');
    fs.symlinkSync(wide, link);
    assert.throws(() => chooseSocketPath([link]), /not a plain folder/);
    if (process.getuid?.() === 0) {
      const theirs = path.join(tmp, 'theirs');
      fs.mkdirSync(theirs, { mode: 0o700 });
      fs.chownSync(theirs, 65534, 65534);
      assert.throws(() => chooseSocketPath([theirs]), /belongs to user 65534/);
    }
  });

  it('a storage folder too deep for sun_path falls back to the next candidate', () => {
    const deep = path.join(tmp, 'x'.repeat(120));
    const runtime = path.join(tmp, 'run');
    const chosen = chooseSocketPath(socketDirCandidates(deep, { XDG_RUNTIME_DIR: runtime }));
    assert.equal(path.dirname(chosen), path.join(runtime, 'dsh-bridge'));
    assert.ok(Buffer.byteLength(chosen) <= MAX_SOCKET_PATH_BYTES);
    assert.equal(fs.existsSync(deep), false, 'the deep folder was not even created');
    assert.throws(() => chooseSocketPath([deep]), /would be \d+ bytes \(at most 103\)/);
  });

  it('the endpoint variable round-trips and bad values say what is expected', () => {
    const e = { socketPath: '/tmp/a#b/w.sock', secret: 'ab'.repeat(32) };
    assert.deepEqual(parseEndpoint(formatEndpoint(e)), e);
    assert.throws(() => parseEndpoint('unix:/tmp/w.sock#short'), /unix:<absolute socket path>#<64 hex digits>/);
    assert.throws(() => parseEndpoint('/tmp/w.sock'), /DSH_BRIDGE_MCP must look like/);
  });

  it('a bad value is refused without repeating its secret; the pasted assignment says to drop the name', () => {
    const secret = 'c0ffee'.repeat(10) + 'abcd';
    const messageOf = (value: string) => {
      try {
        parseEndpoint(value);
      } catch (e) {
        return (e as Error).message;
      }
      return assert.fail(`${value} was accepted`);
    };
    // What "Copy DSH_BRIDGE_MCP for Another Client" puts on the clipboard, set as the value.
    const pasted = messageOf(`DSH_BRIDGE_MCP=unix:/tmp/w.sock#${secret}`);
    assert.ok(!pasted.includes(secret), pasted);
    assert.match(pasted, /without the leading "DSH_BRIDGE_MCP="/);
    const short = messageOf(`unix:relative/w.sock#${secret}`);
    assert.ok(!short.includes(secret), short);
    assert.match(short, /unix:relative\/w\.sock#…/, 'the socket part is shown, the secret is not');
  });

  it('a wrong, missing or malformed secret is refused with an ERROR line; nothing reaches the MCP side', async () => {
    const accepted: Buffer[] = [];
    const server = await listening((_s, rest) => accepted.push(rest));
    const mcp = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';
    assert.match(await answerTo(server.socketPath, helloLine('0'.repeat(64)) + mcp), /^ERROR wrong secret/);
    assert.match(await answerTo(server.socketPath, 'DSH-BRIDGE-MCP/1\n' + mcp), /^ERROR no secret presented/);
    assert.match(await answerTo(server.socketPath, mcp), /^ERROR not a DSH Bridge MCP client/);
    assert.match(await answerTo(server.socketPath, 'x'.repeat(300)), /^ERROR the first line is longer than 256 bytes/);
    assert.equal(accepted.length, 0);
    // The right secret: the bytes after the line are handed on untouched.
    const right = await new Promise<string>((resolve) => {
      const s = net.createConnection(server.socketPath, () => s.write(helloLine(server.secret) + mcp));
      s.once('data', (d) => (resolve(String(d)), s.destroy()));
    });
    assert.equal(right, 'OK\n');
    await until('the bytes after the line on the MCP side', () => Buffer.concat(accepted).length >= Buffer.byteLength(mcp));
    assert.equal(Buffer.concat(accepted).toString(), mcp);
  });

  it('a client that sends requests and never reads leaves at most a bounded backlog in the window; every answer arrives once it reads', async () => {
    let hostSocket: net.Socket | undefined;
    const description = 'x'.repeat(25_000); // about the size of the contributed tools list
    const server = await listening((socket, rest) => {
      hostSocket = socket;
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'echo', description, inputSchema: { type: 'object' } }],
      }));
      void mcp.connect(new SocketTransport(socket, rest));
    });
    const requests = 4000;
    const client = net.createConnection(server.socketPath);
    await new Promise<void>((resolve) => client.once('connect', resolve));
    client.pause(); // reads nothing yet
    let batch = helloLine(server.secret);
    for (let id = 1; id <= requests; id++) batch += JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) + '\n';
    client.write(batch);
    await until('the window has the connection', () => hostSocket !== undefined);
    let most = 0;
    for (let i = 0; i < 30; i++) {
      most = Math.max(most, hostSocket!.writableLength);
      await sleep(50);
    }
    assert.ok(most < 8 * 1024 * 1024, `the window buffered ${(most / 1e6).toFixed(1)} MB of answers for a client that reads nothing`);
    const ids = new Set<number>();
    onLines(client, (line) => {
      if (line.startsWith('{')) ids.add((JSON.parse(line) as { id: number }).id);
    });
    client.resume();
    await until('every answer arrived', () => ids.size === requests, 20_000);
    client.destroy();
  });

  /**
   * A client on the endpoint without the SDK: writes raw lines and keeps every JSON line the
   * window sends (after its `OK`).
   */
  async function rawClient(
    server: EndpointServer,
  ): Promise<{ socket: net.Socket; lines: Record<string, unknown>[]; closed: () => boolean }> {
    const socket = net.createConnection(server.socketPath);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(helloLine(server.secret));
    const lines: Record<string, unknown>[] = [];
    let closed = false;
    onLines(socket, (line) => {
      if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    return { socket, lines, closed: () => closed };
  }

  /** A promise and its resolve function. */
  function gate(): { opened: Promise<void>; open: () => void } {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  }

  it('a request reusing the id of a request in flight is refused with Invalid Request and never started', async () => {
    let started = 0;
    const release = gate();
    const server = await listening((socket, rest) => {
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => {
        started++;
        await release.opened;
        return { tools: [] };
      });
      void mcp.connect(new SocketTransport(socket, rest));
    });
    const client = await rawClient(server);
    const copies = 1000; // about 47 KB: one write
    client.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })}\n`.repeat(copies));
    await until('every copy started or refused', () => started + client.lines.length >= copies);
    assert.equal(started, 1, `${started} handlers started for one id`);
    assert.equal(client.lines.length, copies - 1);
    for (const line of client.lines) {
      assert.equal(line.id, 7);
      const error = line.error as { code: number; message: string };
      assert.equal(error.code, -32600);
      assert.match(error.message, /id 7 is in use by a request still in flight/);
    }
    release.open();
    await until('the one started request answered', () => client.lines.length === copies);
    assert.deepEqual(client.lines.at(-1), { jsonrpc: '2.0', id: 7, result: { tools: [] } });
    // Answered, the id is free again.
    client.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })}\n`);
    await until('the reused id answered', () => client.lines.length === copies + 1);
    assert.equal(started, 2);
    assert.deepEqual(client.lines.at(-1), { jsonrpc: '2.0', id: 7, result: { tools: [] } });
    client.socket.destroy();
  });

  it('a cancelled request counts against the in-flight bound until its handler settles; one cancelled while it waits never runs; no answer is sent for either', async () => {
    let started = 0;
    let settled = 0;
    let sawCancel = 0;
    const release = gate();
    let transport: SocketTransport | undefined;
    const server = await listening((socket, rest) => {
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
        started++;
        // Like a confirmation dialog: it goes on after the client cancelled.
        await release.opened;
        if (transport!.cancellationOf(extra.requestId)?.aborted) sawCancel++;
        settled++;
        return { tools: [] };
      });
      transport = new SocketTransport(socket, rest);
      void mcp.connect(transport);
    });
    const client = await rawClient(server);
    const requests = 200;
    let batch = '';
    for (let id = 1; id <= requests; id++) {
      batch += JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) + '\n';
      batch += JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } }) + '\n';
    }
    client.socket.write(batch);
    await until('the first handlers started', () => started >= MAX_REQUESTS_IN_FLIGHT);
    await sleep(500); // asserting that no more start while those run
    assert.equal(started, MAX_REQUESTS_IN_FLIGHT, `${started} handlers run at once after call + cancel pairs`);
    release.open();
    await until('every handler started settled', () => settled === MAX_REQUESTS_IN_FLIGHT);
    assert.equal(sawCancel, MAX_REQUESTS_IN_FLIGHT, 'each handler saw its cancellation');
    client.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/list' }) + '\n');
    await until('the next request answered', () => client.lines.length > 0);
    assert.deepEqual(client.lines, [{ jsonrpc: '2.0', id: 'last', result: { tools: [] } }], 'nothing but the last answer was sent');
    // Requests start in order: any of those cancelled while they waited would have run before it.
    assert.equal(started, MAX_REQUESTS_IN_FLIGHT + 1, 'the requests cancelled while they waited never ran');
    client.socket.destroy();
  });

  /** Resolves on the next turn of the event loop, after pending I/O. */
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('a message arriving in a few thousand small reads is gathered in time linear in its size', async () => {
    let hostSocket: net.Socket | undefined;
    let reads = 0;
    let handlingUs = 0; // CPU time (µs) of the window's handling of each read: the transport's listener
    const server = await listening((socket, rest) => {
      hostSocket = socket;
      let before = process.cpuUsage();
      socket.prependListener('data', () => (before = process.cpuUsage()));
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(CallToolRequestSchema, async (req) => ({
        content: [{ type: 'text', text: String((req.params.arguments as { text: string }).text.length) }],
      }));
      void mcp.connect(new SocketTransport(socket, rest)); // adds the transport's listener at once
      socket.on('data', () => {
        const used = process.cpuUsage(before);
        handlingUs += used.user + used.system;
        reads++;
      });
    });
    const client = await rawClient(server);
    await until('the window has the connection', () => hostSocket !== undefined);
    // Just under the message limit; 'é' is 2 bytes, so pieces end inside a character too.
    const limit = MAX_MESSAGE_BYTES;
    const characters = Math.floor((limit - 200) / 2);
    const message = Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'é'.repeat(characters) } },
      }) + '\n',
    );
    assert.ok(message.length <= limit + 1, `${message.length} bytes`);
    const piece = 501;
    for (let at = 0; at < message.length; at += piece) {
      client.socket.write(message.subarray(at, at + piece));
      await nextTurn(); // the window reads each piece on its own
    }
    await until('the answer', () => client.lines.length > 0, 60_000);
    const ms = handlingUs / 1000;
    assert.deepEqual(client.lines[0], { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: String(characters) }] } });
    assert.ok(reads > 2000, `the message came in ${reads} reads (the test wants many small ones)`);
    // Gathering it once took some tens of ms here; rebuilding and rescanning the unfinished
    // message on every read (copying and scanning it about `reads / 2` times over) took seconds.
    assert.ok(ms < 500, `${reads} reads of a ${(message.length / 1048576).toFixed(2)} MiB message took ${ms.toFixed(0)} ms of CPU`);
    client.socket.destroy();
  });

  it('a message over 2 MiB is answered with an error carrying its id and is not read; the connection, and what follows, stay', async () => {
    const errors: string[] = [];
    let closed = 0;
    let hostSocket: net.Socket | undefined;
    const server = await listening((socket, rest) => {
      hostSocket = socket;
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
      mcp.onerror = (e) => errors.push(e.message);
      mcp.onclose = () => closed++;
      void mcp.connect(new SocketTransport(socket, rest));
    });
    const client = await rawClient(server);
    await until('the window has the connection', () => hostSocket !== undefined);
    // The limit holds the largest tool input: text to type, every byte a 6-byte JSON escape.
    assert.ok(MAX_MESSAGE_BYTES >= 6 * MAX_INPUT_BYTES + 64 * 1024);
    const big = 'x'.repeat(MAX_MESSAGE_BYTES);
    const call = (text: string) => ({ name: 'dsh_terminal_send', arguments: { sessionId: 'pty-1', input: text } });
    const stringId = 'a"b\\c\u2028{"id":1}';
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      // The id first, a string with escapes (the key order of the Python SDK's client).
      JSON.stringify({ jsonrpc: '2.0', id: stringId, method: 'tools/call', params: call(big) }),
      // The id last, after the text (the key order of the TypeScript SDK's Client); an "id" inside
      // the text, inside params and an escaped key name do not fool it.
      `{"method":"tools/call","params":${JSON.stringify({ id: 5, ...call(`"id":9,${big}`) })},"jsonrpc":"2.0","\\u0069d":42}`,
      // Not JSON: the window cannot tell its id.
      'x'.repeat(MAX_MESSAGE_BYTES + 1),
      // A notification: nothing to answer.
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: big } }),
      JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'ping' }),
    ];
    const bytes = Buffer.from(lines.join('\n') + '\n');
    for (let at = 0; at < bytes.length; at += 65536) client.socket.write(bytes.subarray(at, at + 65536));
    await until('every answer', () => client.lines.length >= 5 || client.closed(), 20_000);
    assert.equal(client.closed(), false, 'the connection stays');
    assert.equal(closed, 0);
    assert.deepEqual(client.lines[0], { jsonrpc: '2.0', id: 1, result: { tools: [] } });
    assert.deepEqual(
      client.lines.slice(1, 4).map((line) => line.id),
      [stringId, 42, null],
    );
    for (const line of client.lines.slice(1, 4)) {
      const error = line.error as { code: number; message: string };
      assert.equal(error.code, -32600);
      assert.match(
        error.message,
        /^a message of \d+ bytes was not read: the window reads messages of at most 2 MiB \(2097152 bytes\).*put larger data in a file and have the command read it/,
      );
    }
    assert.deepEqual(client.lines[4], { jsonrpc: '2.0', id: 'after', result: {} });
    assert.equal(client.lines.length, 5, 'the notification got no answer');
    assert.match(errors.join('\n'), /a message of \d+ bytes was not read/);
    assert.equal(hostSocket!.bytesRead, Buffer.byteLength(helloLine(server.secret)) + bytes.length, 'every byte was read');
    client.socket.destroy();
  });

  it('an unfinished message that gets no more bytes ends the connection; a connection idle between messages stays', async () => {
    assert.throws(
      () => new SocketTransport(new net.Socket(), undefined, { partialMessageTimeoutMs: 0 }),
      /partialMessageTimeoutMs must be a number of ms from 1 to 2147483647, not 0/,
    );
    const server = await listening((socket, rest) => {
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
      void mcp.connect(new SocketTransport(socket, rest, { partialMessageTimeoutMs: 300 }));
    });
    const idle = await rawClient(server);
    const partial = await rawClient(server);
    idle.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) + '\n');
    partial.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) + '\n{"jsonrpc":"2.0","id":2,');
    await until('the unfinished message ends its connection', () => partial.closed());
    assert.equal(partial.lines.length, 2);
    assert.deepEqual(partial.lines[0], { jsonrpc: '2.0', id: 1, result: { tools: [] } });
    assert.match((partial.lines[1]!.error as { message: string }).message, /no byte of an unfinished message came for 300 ms/);
    await sleep(600); // asserting that a connection without an unfinished message is not ended
    assert.equal(idle.closed(), false);
    idle.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
    await until('the idle connection answers', () => idle.lines.length === 2);
    idle.socket.destroy();
  });

  it('the rest of an unfinished message that waits unread while the event loop was blocked past the timeout is read; the connection stays', async () => {
    let hostSocket: net.Socket | undefined;
    const server = await listening((socket, rest) => {
      hostSocket = socket;
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
      void mcp.connect(new SocketTransport(socket, rest, { partialMessageTimeoutMs: 200 }));
    });
    const client = await rawClient(server);
    await until('the window has the connection', () => hostSocket !== undefined);
    const message = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n';
    const read = hostSocket!.bytesRead;
    client.socket.write(message.slice(0, 20));
    await until('the window read the start (its timer runs)', () => hostSocket!.bytesRead === read + 20);
    // Written and blocked in the check phase: the loop's next step runs the timers (the timer is
    // overdue by then), and only after them polls the socket.
    await nextTurn();
    client.socket.write(message.slice(20));
    assert.equal(client.socket.writableLength, 0, 'the rest is in the socket, unread');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
    await until('the answer', () => client.lines.length > 0);
    assert.deepEqual(client.lines, [{ jsonrpc: '2.0', id: 2, result: { tools: [] } }]);
    assert.equal(client.closed(), false);
    client.socket.destroy();
  });

  it('while requests wait for the in-flight bound, cancellations behind them are carried out and requests keep their order; at most 64 messages wait', async () => {
    const gates = new Map<unknown, () => void>();
    const started: unknown[] = [];
    let transport: SocketTransport | undefined;
    let hostSocket: net.Socket | undefined;
    const server = await listening((socket, rest) => {
      hostSocket = socket;
      const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
        started.push(extra.requestId);
        await new Promise<void>((resolve) => gates.set(extra.requestId, resolve));
        return { tools: [] };
      });
      transport = new SocketTransport(socket, rest);
      void mcp.connect(transport);
    });
    const client = await rawClient(server);
    const request = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) + '\n';
    const cancel = (id: number) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } }) + '\n';
    let batch = '';
    for (let id = 1; id <= MAX_REQUESTS_IN_FLIGHT; id++) batch += request(id);
    client.socket.write(batch);
    await until('64 handlers started', () => gates.size === MAX_REQUESTS_IN_FLIGHT);
    // Request 65 must wait; the cancellations of 1 and 66 behind it are carried out at once.
    client.socket.write(request(65) + cancel(1) + request(66) + request(67) + cancel(66));
    await until('request 1 cancelled', () => transport!.cancellationOf(1)?.aborted);
    assert.equal(started.length, MAX_REQUESTS_IN_FLIGHT, 'no request past the bound started');
    gates.get(1)!(); // its handler settles: one place is free
    await until('request 65 started', () => started.length === MAX_REQUESTS_IN_FLIGHT + 1);
    gates.get(2)!();
    await until('request 67 started', () => started.length === MAX_REQUESTS_IN_FLIGHT + 2);
    assert.deepEqual(started.slice(MAX_REQUESTS_IN_FLIGHT), [65, 67], 'in order; the cancelled 66 never ran');
    await until('the answer to 2', () => client.lines.length === 1);
    assert.deepEqual(client.lines, [{ jsonrpc: '2.0', id: 2, result: { tools: [] } }], 'nothing for the cancelled 1 and 66');

    // More waiting requests than the bound: reading stops, and what lies behind them waits unread.
    const read = hostSocket!.bytesRead;
    let more = ''; // 200 requests of 2 KB: more than a few reads
    for (let id = 100; id < 300; id++)
      more += JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { pad: 'p'.repeat(2000) } } }) + '\n';
    client.socket.write(more + cancel(3));
    await until('reading paused', () => hostSocket!.isPaused() && hostSocket!.bytesRead > read);
    await sleep(300); // asserting that the window reads no further
    assert.ok(
      hostSocket!.bytesRead - read < Buffer.byteLength(more),
      `${hostSocket!.bytesRead - read} of ${Buffer.byteLength(more)} bytes read`,
    );
    assert.equal(transport!.cancellationOf(3)?.aborted, false, 'the cancellation behind them is not read yet');
    // As handlers settle, every request runs, in order, and the cancellation arrives.
    const expected = [
      ...Array.from({ length: MAX_REQUESTS_IN_FLIGHT + 3 }, (_, i) => i + 1).filter((id) => id !== 66),
      ...Array.from({ length: 200 }, (_, i) => i + 100),
    ];
    while (started.length < expected.length) {
      for (const [id, open] of gates) {
        gates.delete(id);
        open();
      }
      await sleep(20);
    }
    for (const open of gates.values()) open();
    assert.deepEqual(started, expected);
    await until('request 3 cancelled or settled', () => transport!.cancellationOf(3) === undefined);
    client.socket.destroy();
  });

  it(`at most ${MAX_PENDING_HANDSHAKES} connections wait for their handshake and ${MAX_CONNECTIONS} are connected; more are refused with an ERROR line`, async () => {
    const accepted: net.Socket[] = [];
    const server = await listening((socket) => accepted.push(socket));
    /** Connects, sends `first`, resolves with the window's first line. */
    const answer = (first: string, keep: net.Socket[]) =>
      new Promise<string>((resolve, reject) => {
        const s = net.createConnection(server.socketPath, () => s.write(first));
        keep.push(s);
        let got = '';
        s.on('data', (d) => {
          got += String(d);
          if (got.includes('\n')) resolve(got.slice(0, got.indexOf('\n')));
        });
        s.on('error', reject);
      });
    const silent: net.Socket[] = [];
    for (let i = 0; i < MAX_PENDING_HANDSHAKES; i++) {
      const s = net.createConnection(server.socketPath);
      await new Promise<void>((resolve) => s.once('connect', resolve));
      silent.push(s);
    }
    const kept: net.Socket[] = [];
    assert.match(
      await answer(helloLine(server.secret), kept),
      /^ERROR too many connections are waiting for their handshake \(at most 8 at once\); try again in a few seconds$/,
    );
    silent.pop()!.destroy();
    await until('the window saw it go', async () => (await answer(helloLine(server.secret), kept)) === 'OK');
    for (const s of silent) s.destroy();
    while (accepted.length < MAX_CONNECTIONS) assert.equal(await answer(helloLine(server.secret), kept), 'OK');
    assert.match(
      await answer(helloLine(server.secret), kept),
      /^ERROR too many MCP connections to this window \(at most 32\); end another agent's connection first$/,
    );
    accepted[0]!.destroy();
    await until('a place is free again', async () => (await answer(helloLine(server.secret), kept)) === 'OK');
    for (const s of kept) s.destroy();
  });

  describe('the stdio bridge', () => {
    it('--help explains discovery, the command and the setting', async () => {
      const r = await runBridge([...FROM_SOURCE, '--help'], {});
      assert.equal(r.code, 0);
      assert.match(r.stdout, /DSH_BRIDGE_MCP/);
      assert.match(r.stdout, /DSH: Connect an Agent \(MCP\)/);
      assert.match(r.stdout, /dsh\.mcp\.enabled/);
    });

    it('exits 1 with a message when the variable is unset or no window listens', async () => {
      const unset = await runBridge(FROM_SOURCE, {});
      assert.equal(unset.code, 1);
      assert.match(unset.stderr, /DSH_BRIDGE_MCP is not set.*integrated terminal/);
      const gone = await runBridge(FROM_SOURCE, {
        [ENDPOINT_ENV]: formatEndpoint({ socketPath: path.join(tmp, 'nobody.sock'), secret: 'a'.repeat(64) }),
      });
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /no VS Code window is reachable at .*nobody\.sock \(ENOENT\)/);
      assert.equal(gone.stdout, '', 'nothing but MCP ever goes to stdout');
    });

    it('exits 1 printing the refusal when the secret is wrong', async () => {
      const server = await listening(() => assert.fail('a wrong secret must never reach MCP'));
      const r = await runBridge(
        FROM_SOURCE,
        { [ENDPOINT_ENV]: formatEndpoint({ socketPath: server.socketPath, secret: 'f'.repeat(64) }) },
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
      );
      assert.equal(r.code, 1);
      assert.match(r.stderr, /the window refused the connection: wrong secret/);
    });

    /**
     * An SDK Server behind the socket with one tool, `echo`, answered by `answer` (its arguments to
     * its text), and an SDK Client connected to it through the bridge program; close the client.
     */
    async function sdkClientOf(answer: (args: unknown, clientName: string | undefined) => string): Promise<Client> {
      const server = await listening((socket, rest) => {
        const mcp = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
        mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
        mcp.setRequestHandler(CallToolRequestSchema, async (req) => ({
          content: [{ type: 'text', text: answer(req.params.arguments, mcp.getClientVersion()?.name) }],
        }));
        void mcp.connect(new SocketTransport(socket, rest));
      });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: FROM_SOURCE,
        env: { PATH: process.env.PATH ?? '', [ENDPOINT_ENV]: formatEndpoint(server.endpoint) },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'unit-client', version: '0.0.1' });
      await client.connect(transport);
      return client;
    }

    it('carries MCP both ways: the SDK Client lists and calls a tool of an SDK Server behind the socket', async () => {
      let clientName: string | undefined;
      const client = await sdkClientOf((args, name) => ((clientName = name), JSON.stringify(args)));
      try {
        assert.deepEqual(
          (await client.listTools()).tools.map((t) => t.name),
          ['echo'],
        );
        const r = await client.callTool({ name: 'echo', arguments: { big: 'é'.repeat(100_000) } });
        assert.deepEqual(JSON.parse((r.content as { text: string }[])[0]!.text), { big: 'é'.repeat(100_000) });
        assert.equal(clientName, 'unit-client');
      } finally {
        await client.close();
      }
    });

    it("a call over 2 MiB from the SDK Client (its id last) fails with the window's error; the next call is answered", async () => {
      let calls = 0;
      const client = await sdkClientOf((args) => (calls++, JSON.stringify(args).length.toString()));
      try {
        await assert.rejects(
          client.callTool({ name: 'echo', arguments: { big: 'x'.repeat(MAX_MESSAGE_BYTES) } }),
          /MCP error -32600: a message of \d+ bytes was not read: .*put larger data in a file/,
        );
        const r = await client.callTool({ name: 'echo', arguments: { small: 'y' } });
        assert.deepEqual(r.content, [{ type: 'text', text: String(JSON.stringify({ small: 'y' }).length) }]);
        assert.equal(calls, 1);
      } finally {
        await client.close();
      }
    });
  });
});
