/**
 * `npm run bench:terminal`: readiness latency of the pty-bash backend (issue 4). Prints figures, asserts nothing.
 * - session: 200 sends of `true` through TerminalService, each timed from the call to its
 *   `stdin_read` result (ms, wall clock);
 * - raw: 200 round trips of `echo tokN` on a bare node-pty bash (no markers, no probe), each timed
 *   from the write to the moment its output and the next prompt arrived (ms);
 * then median and p95 of both, their ratio, the added latency, and the bound it should stay within:
 * one poll interval plus the prompt grace (the controlled prompt needs `promptGraceMs` of quiet,
 * seen by a poll every `pollIntervalMs`).
 * Environment: DSH_BENCH_SENDS (default 200).
 */
import { resolveTerminalConfig } from '../src/terminal/config';
import { PtyBashBackend } from '../src/terminal/ptyBash';
import { TerminalService } from '../src/terminal/service';

const SENDS = Number(process.env.DSH_BENCH_SENDS ?? 200);
const pty = require('node-pty') as typeof import('node-pty');

const now = () => Number(process.hrtime.bigint()) / 1e6;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function session(): Promise<number[]> {
  const log = { info: () => {}, warn: () => {} };
  const service = new TerminalService(log);
  const config = resolveTerminalConfig();
  service.registerBackend(new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('bench');
  const { sessionId } = await service.open(owner);
  const times: number[] = [];
  try {
    for (let i = 0; i < SENDS; i++) {
      const t = now();
      const r = await service.send(owner, sessionId, { input: 'true' });
      times.push(now() - t);
      if (r.waitReason !== 'stdin_read' || r.waiting !== 'shell-prompt') throw new Error(`send ${i}: ${r.waitReason}/${r.waiting}`);
    }
  } finally {
    await service.close(owner, sessionId, 'bench done');
  }
  return times;
}

async function raw(): Promise<number[]> {
  const prompt = '__P__ ';
  const term = pty.spawn('bash', ['--norc', '--noprofile', '-i'], {
    name: 'xterm-256color',
    cols: 120,
    rows: 30,
    env: { ...process.env, PS1: prompt, PROMPT_COMMAND: '' } as Record<string, string>,
  });
  let buffer = '';
  let waiter: (() => void) | undefined;
  term.onData((d) => {
    buffer += d;
    waiter?.();
  });
  const until = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (pattern.test(buffer)) {
          waiter = undefined;
          buffer = '';
          resolve();
        }
      };
      waiter = check;
      check();
    });
  // Readline may wrap the prompt in bracketed-paste switches (ESC [?2004h): match around them.
  await until(/__P__ $/);
  const times: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const t = now();
    term.write(`echo tok${i}\n`);
    await until(new RegExp(`[\\r\\n]tok${i}\\r\\n[^]*__P__ $`));
    times.push(now() - t);
  }
  term.kill();
  return times;
}

async function main(): Promise<void> {
  const config = resolveTerminalConfig();
  const s = await session();
  const r = await raw();
  const [sMed, sP95, rMed, rP95] = [quantile(s, 0.5), quantile(s, 0.95), quantile(r, 0.5), quantile(r, 0.95)];
  const bound = config.pollIntervalMs + config.promptGraceMs;
  console.log(`bench:terminal — ${SENDS} sends each, node ${process.version}, ${process.platform}/${process.arch}`);
  console.log(`send \`true\` → stdin_read   median ${fmt(sMed)}   p95 ${fmt(sP95)}`);
  console.log(`raw node-pty echo round trip median ${fmt(rMed)}   p95 ${fmt(rP95)}`);
  console.log(`ratio (median session / median raw) ${(sMed / rMed).toFixed(1)}×`);
  console.log(`added latency (median) ${fmt(sMed - rMed)}; bound pollIntervalMs + promptGraceMs = ${config.pollIntervalMs} + ${config.promptGraceMs} = ${bound} ms → ${sMed - rMed <= bound ? 'within' : 'OVER'} the bound`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
