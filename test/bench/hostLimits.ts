/**
 * The `limits` part of bench:host (DSH_BENCH_HOST_PARTS=limits): what one caller can make the
 * extension host do, each run as a scenario of host.ts (the no-op call's latency and the event-loop
 * lag beside it): 200 session opens at once from one MCP client, 256 runaway scrollback searches at
 * once from one MCP client, and a 2 M-character input through vscode.lm.invokeTool. For each it
 * prints how many calls were refused, how long a refusal took (goal: under 50 ms), and what the
 * host grew by (resident memory, threads). Asserts nothing.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { callTool, connectClient, McpCall, terminalEndpointValue } from '../helpers/host/mcp';
import { emit } from '../helpers/host/report';
import { median, now, quantile } from './timing';

type Scenario = (label: string, work: () => Promise<unknown>) => Promise<void>;

/** Threads of the extension host process now (Linux). */
function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * Runs `calls` at once, each timed; prints how many succeeded, how many were refused (with the
 * first refusal's message) and the latency of each kind, with the host's growth meanwhile.
 */
async function burst(label: string, calls: (() => Promise<McpCall>)[]): Promise<McpCall[]> {
  const rss = process.memoryUsage().rss;
  const thr = threads();
  let mostThreads = thr;
  const sampler = setInterval(() => (mostThreads = Math.max(mostThreads, threads())), 50);
  const timed = await Promise.all(
    calls.map(async (call) => {
      const t = now();
      const r = await call();
      return { r, took: now() - t };
    }),
  );
  clearInterval(sampler);
  const ok = timed.filter((x) => !x.r.isError).map((x) => x.took);
  const refused = timed.filter((x) => x.r.isError);
  const refusedTimes = refused.map((x) => x.took);
  const figures = (xs: number[]) => (xs.length ? `median ${ms(median(xs))} p95 ${ms(quantile(xs, 0.95))} max ${ms(Math.max(...xs))}` : '-');
  emit({
    text:
      `    ${label}: ${ok.length} answered (${figures(ok)}), ${refused.length} refused (${figures(refusedTimes)}); ` +
      `host grew by ${mib(process.memoryUsage().rss - rss)} resident, at most ${mostThreads - thr} threads`,
  });
  if (refused[0]) emit({ text: `    first refusal: ${refused[0].r.first.slice(0, 300)}` });
  return timed.map((x) => x.r);
}

/** The limits scenarios (see the module comment), run with host.ts's `scenario`. */
export async function limitsScenarios(scenario: Scenario): Promise<void> {
  emit({ text: '\nLimits per caller (one MCP client, dsh-test-approved; the no-op call is the Language Model Tools owner):' });
  const c = await connectClient('dsh-test-approved', await terminalEndpointValue());
  try {
    let opened: string[] = [];
    await scenario('one MCP client asks for 200 sessions at once', async () => {
      const results = await burst(
        '200 dsh_terminal_open',
        Array.from({ length: 200 }, (_, i) => () => callTool(c, 'dsh_terminal_open', { name: `limits-${i}` })),
      );
      opened = results.filter((r) => !r.isError).map((r) => String(r.json.sessionId));
    });
    const [first, ...rest] = opened;
    for (const id of rest) await callTool(c, 'dsh_terminal_close', { sessionId: id });
    if (!first) throw new Error('no session opened');
    await callTool(c, 'dsh_terminal_send', { sessionId: first, input: "printf 'a%.0s' $(seq 1 5000); echo b" });
    await scenario('one MCP client runs 256 scrollback searches ((a+)+$ on a line of 5000 a) at once', () =>
      burst(
        '256 dsh_terminal_read search',
        Array.from(
          { length: 256 },
          () => () => callTool(c, 'dsh_terminal_read', { sessionId: first, search: '(a+)+$', regex: true, timeoutMs: 2000 }),
        ),
      ),
    );
    const text = '\u200b'.repeat(2_000_000);
    await scenario('a 2 M-character input (zero-width spaces) to dsh_terminal_send, via invokeTool and via MCP', async () => {
      const lm = async (): Promise<McpCall> => {
        try {
          await vscode.lm.invokeTool('dsh_terminal_send', { input: { sessionId: first, input: text }, toolInvocationToken: undefined });
          return { json: {}, text: undefined, isError: false, first: '' };
        } catch (e) {
          return { json: {}, text: undefined, isError: true, first: (e as Error).message };
        }
      };
      await burst('invokeTool, 3 times', [lm, lm, lm]);
      const mcp = async (): Promise<McpCall> =>
        callTool(c, 'dsh_terminal_send', { sessionId: first, input: text }).catch((e: Error) => ({
          json: {},
          text: undefined,
          isError: true,
          first: e.message,
        }));
      await burst('MCP, 3 times', [mcp, mcp, mcp]);
    });
    await callTool(c, 'dsh_terminal_close', { sessionId: first });
  } finally {
    await c.close().catch(() => undefined);
  }
}
