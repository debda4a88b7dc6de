/**
 * The controlling terminal of a process, read from the kernel and never from inherited
 * environment variables: `/proc/<pid>/stat` on Linux, `ps` elsewhere. Plain Node, no `vscode`
 * import.
 */
import { readFile } from 'node:fs/promises';
import { PS_PROGRAM } from './psProgram';
import { describeError, run, type RunResult } from './run';
import { parseProcStat } from './stat';

/** Default limit for the `ps` fallback (ms). */
export const DEFAULT_PS_TIMEOUT_MS = 2000;

/** The controlling terminal of a process (`/dev/...`), or `null` with the reason it is unknown or absent. */
export type ControllingTerminal = { readonly tty: string } | { readonly tty: null; readonly reason: string };

/**
 * Reads the controlling terminal of process `pid`. On Linux from `/proc/<pid>/stat` field 7
 * (`tty_nr`), decoded with {@link decodeTtyNr} to `/dev/pts/N`; where `/proc` cannot be read, and on
 * every other platform, from `ps -o tty= -p <pid>` (`pts/3` → `/dev/pts/3`, `ttys003` →
 * `/dev/ttys003`), limited to `timeoutMs` (default {@link DEFAULT_PS_TIMEOUT_MS}). Never rejects: a
 * process without a controlling terminal, a missing process or an unreadable answer gives
 * `{tty: null, reason}`.
 */
export async function readControllingTerminal(
  pid: number,
  options: { readonly platform?: NodeJS.Platform; readonly timeoutMs?: number } = {},
): Promise<ControllingTerminal> {
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PS_TIMEOUT_MS;
  if (!Number.isInteger(pid) || pid <= 0) {
    return { tty: null, reason: `${String(pid)} is not a process id` };
  }
  let procFailure: string | undefined;
  if (platform === 'linux') {
    const statPath = `/proc/${pid}/stat`;
    let stat: string | undefined;
    try {
      stat = await readFile(statPath, 'utf8');
    } catch (error) {
      procFailure = `${statPath}: ${describeError(error)}`;
    }
    if (stat !== undefined) {
      return controllingTerminalFromProcStat(stat, pid);
    }
  }
  const ps = await readControllingTerminalWithPs(pid, timeoutMs);
  if (ps.tty === null && procFailure !== undefined) {
    return { tty: null, reason: `${procFailure}; ${ps.reason}` };
  }
  return ps;
}

function controllingTerminalFromProcStat(text: string, pid: number): ControllingTerminal {
  const stat = parseProcStat(text, pid);
  if (stat === undefined) {
    return { tty: null, reason: `/proc/${pid}/stat has no readable tty_nr field` };
  }
  if (stat.ttyNr === 0) {
    return { tty: null, reason: `process ${pid} has no controlling terminal` };
  }
  const { major, minor } = decodeTtyNr(stat.ttyNr);
  const path = ptsPath(major, minor);
  if (path === undefined) {
    return {
      tty: null,
      reason: `process ${pid}'s controlling terminal (device ${major}:${minor}) is not a pseudo-terminal`,
    };
  }
  return { tty: path };
}

/**
 * Splits a `tty_nr` value of `/proc/<pid>/stat` into device numbers, per the kernel's
 * `new_encode_dev`: major in bits 8–19, minor in bits 0–7 plus 20–31 (proc(5) documents bits
 * 15–8 and 31–20 + 7–0). Negative values (bit 31 set, printed signed) are taken as unsigned.
 */
export function decodeTtyNr(ttyNr: number): { major: number; minor: number } {
  const value = ttyNr >>> 0;
  return {
    major: (value >>> 8) & 0xfff,
    minor: (value & 0xff) | ((value >>> 12) & 0xfff00),
  };
}

/**
 * `/dev/pts/N` for a Unix98 pty slave device (majors 136–143, 256 minors each in the historical
 * layout; current kernels use major 136 with minors past 255), `undefined` for any other device.
 */
export function ptsPath(major: number, minor: number): string | undefined {
  if (major < 136 || major > 143) {
    return undefined;
  }
  return `/dev/pts/${(major - 136) * 256 + minor}`;
}

async function readControllingTerminalWithPs(pid: number, timeoutMs: number): Promise<ControllingTerminal> {
  const answer: RunResult =
    PS_PROGRAM === undefined ? { kind: 'not-found' } : await run(PS_PROGRAM, ['-o', 'tty=', '-p', String(pid)], timeoutMs);
  if (answer.kind !== 'ok') {
    const detail =
      answer.kind === 'failed'
        ? `exited with ${answer.status}${answer.stderr ? `: ${answer.stderr}` : ' (no such process?)'}`
        : answer.kind === 'not-found'
          ? 'is not installed'
          : answer.kind === 'spawn-error'
            ? `could not be run: ${answer.message}`
            : answer.kind === 'timeout'
              ? `did not answer within ${timeoutMs} ms`
              : 'answered too much';
    return { tty: null, reason: `ps -o tty= -p ${pid} ${detail}` };
  }
  const tty = answer.stdout.trim();
  if (tty === '') {
    return { tty: null, reason: `ps knows no process ${pid}` };
  }
  if (/^\?+$/.test(tty) || tty === '-') {
    return { tty: null, reason: `process ${pid} has no controlling terminal` };
  }
  return { tty: tty.startsWith('/') ? tty : `/dev/${tty}` };
}
