/**
 * The `limits` part of bench:host (DSH_BENCH_HOST_PARTS=limits): what one caller can make the
 * extension host do, each run as a scenario of host.ts (the no-op call's latency and the event-loop
 * lag beside it): 200 session opens at once from one MCP client, 256 runaway scrollback searches at
 * once from one MCP client, and a 2 M-character input through vscode.lm.invokeTool and over MCP.
 * The MCP client runs in a process of its own (mcpClientProcess.mjs), as an agent outside VS Code
 * does, and times each call there: the host thread carries only the window's side. For each burst
 * it prints how many calls were refused, how long a refusal took (goal: under 50 ms), and what the
 * host grew by (resident memory, threads). Asserts nothing.
 */
import { ChildProcessByStdio, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import * as vscode from 'vscode';
import { ENDPOINT_ENV, bridgePath, terminalEndpointValue } from '../helpers/host/mcp';
import { emit } from '../helpers/host/report';
import { median, now, quantile } from './timing';

type Scenario = (label: string, work: () => Promise<unknown>) => Promise<void>;

/** Threads of the extension host process now (Linux). */
function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** One call's answer, timed by its caller: ms from sending it to its answer, the first text item (the error when refused), its JSON when answered. */
interface Timed {
  took: number;
  isError: boolean;
  first: string;
  json: Record<string, unknown> | null;
}

/** A tool call: the tool's name and its input. */
interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/** The MCP client process (mcpClientProcess.mjs), connected through the shipped bridge; one burst at a time. */
class McpClientProcess {
  private readonly answers: AsyncIterator<string>;

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    this.answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  /** Starts the client named `name` and waits until it is connected. */
  static async start(name: string): Promise<McpClientProcess> {
    const script = path.resolve(__dirname, '../../test/bench/mcpClientProcess.mjs');
    // The environment the bridge gets, as connectClient gives it (../helpers/host/mcp.ts).
    const child = spawn(process.execPath, [script, bridgePath(), name], {
      env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1', [ENDPOINT_ENV]: await terminalEndpointValue() },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const c = new McpClientProcess(child);
    const first = await c.answers.next();
    if (first.done || !(JSON.parse(first.value) as { ready?: boolean }).ready) throw new Error('the MCP client process did not connect');
    return c;
  }

  /** Makes every call at once; each answer timed in the client process. */
  async burst(calls: Call[]): Promise<Timed[]> {
    this.child.stdin.write(JSON.stringify({ op: 'burst', calls }) + '\n');
    const line = await this.answers.next();
    if (line.done) throw new Error('the MCP client process ended');
    return (JSON.parse(line.value) as { results: Timed[] }).results;
  }

  /** One call. */
  async call(name: string, args: Record<string, unknown>): Promise<Timed> {
    return (await this.burst([{ name, arguments: args }]))[0]!;
  }

  /** Closes the client (its sessions close with its connection) and waits for the process to end. */
  async close(): Promise<void> {
    const ended = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.write(JSON.stringify({ op: 'close' }) + '\n');
    await ended;
  }
}

/**
 * Runs `work` (a burst of calls, each timed by its caller) and prints how many succeeded, how many
 * were refused (with the first refusal's message) and the latency of each kind, with the host's
 * growth meanwhile.
 */
async function burst(label: string, work: () => Promise<Timed[]>): Promise<Timed[]> {
  const rss = process.memoryUsage().rss;
  const thr = threads();
  let mostThreads = thr;
  const sampler = setInterval(() => (mostThreads = Math.max(mostThreads, threads())), 50);
  const timed = await work();
  clearInterval(sampler);
  const ok = timed.filter((x) => !x.isError).map((x) => x.took);
  const refused = timed.filter((x) => x.isError);
  const refusedTimes = refused.map((x) => x.took);
  const figures = (xs: number[]) => (xs.length ? `median ${ms(median(xs))} p95 ${ms(quantile(xs, 0.95))} max ${ms(Math.max(...xs))}` : '-');
  emit({
    text:
      `    ${label}: ${ok.length} answered (${figures(ok)}), ${refused.length} refused (${figures(refusedTimes)}); ` +
      `host grew by ${mib(process.memoryUsage().rss - rss)} resident, at most ${mostThreads - thr} threads`,
  });
  if (refused[0]) emit({ text: `    first refusal: ${refused[0].first.slice(0, 300)}` });
  return timed;
}

/** The limits scenarios (see the module comment), run with host.ts's `scenario`. */
export async function limitsScenarios(scenario: Scenario): Promise<void> {
  emit({
    text: '\nLimits per caller (one MCP client in a process of its own, dsh-test-approved; the no-op call is the Language Model Tools owner):',
  });
  const c = await McpClientProcess.start('dsh-test-approved');
  try {
    let opened: string[] = [];
    await scenario('one MCP client asks for 200 sessions at once', async () => {
      const results = await burst('200 dsh_terminal_open', () =>
        c.burst(Array.from({ length: 200 }, (_, i) => ({ name: 'dsh_terminal_open', arguments: { name: `limits-${i}` } }))),
      );
      opened = results.filter((r) => !r.isError).map((r) => String(r.json?.sessionId));
    });
    const [first, ...rest] = opened;
    for (const id of rest) await c.call('dsh_terminal_close', { sessionId: id });
    if (!first) throw new Error('no session opened');
    await c.call('dsh_terminal_send', { sessionId: first, input: "printf 'a%.0s' $(seq 1 5000); echo b" });
    await scenario('one MCP client runs 256 scrollback searches ((a+)+$ on a line of 5000 a) at once', () =>
      burst('256 dsh_terminal_read search', () =>
        c.burst(
          Array.from({ length: 256 }, () => ({
            name: 'dsh_terminal_read',
            arguments: { sessionId: first, search: '(a+)+$', regex: true, timeoutMs: 2000 },
          })),
        ),
      ),
    );
    const text = '\u200b'.repeat(2_000_000);
    await scenario('a 2 M-character input (zero-width spaces) to dsh_terminal_send, via invokeTool and via MCP', async () => {
      const lm = async (): Promise<Timed> => {
        const t = now();
        try {
          await vscode.lm.invokeTool('dsh_terminal_send', { input: { sessionId: first, input: text }, toolInvocationToken: undefined });
          return { took: now() - t, isError: false, first: '', json: {} };
        } catch (e) {
          return { took: now() - t, isError: true, first: (e as Error).message, json: null };
        }
      };
      await burst('invokeTool, 3 times', () => Promise.all([lm(), lm(), lm()]));
      await burst('MCP, 3 times', () =>
        c.burst(Array.from({ length: 3 }, () => ({ name: 'dsh_terminal_send', arguments: { sessionId: first, input: text } }))),
      );
    });
    await c.call('dsh_terminal_close', { sessionId: first });
  } finally {
    await c.close().catch(() => undefined);
  }
}
