/**
 * Runs a short external command (tmux, ps) without a shell, bounded in time and output, and says
 * how it went instead of throwing. Plain Node, no `vscode` import.
 */
import { execFile } from 'node:child_process';

/** How a command run by {@link run} went. */
export type RunResult =
  | { readonly kind: 'ok'; readonly stdout: string }
  /** Exited non-zero (`status N`) or was killed by a signal (`signal SIGxxx`); `stderr` is its first non-blank line, clipped. */
  | { readonly kind: 'failed'; readonly status: string; readonly stderr: string }
  | { readonly kind: 'timeout' }
  /** Printed more than 64 KiB. */
  | { readonly kind: 'too-large' }
  /** No such executable (ENOENT). */
  | { readonly kind: 'not-found' }
  /** Could not be started for another reason (EACCES, EMFILE, a NUL byte in an argument, …). */
  | { readonly kind: 'spawn-error'; readonly message: string };

/** Bound on what is kept of a command's stderr, or of any text quoted inside a reason (characters). */
const MAX_REASON_DETAIL = 200;

/**
 * Runs `file` with `args` (no shell; looked up on `PATH` when `file` has no slash), killed with
 * SIGKILL after `timeoutMs`, with stdout capped at 64 KiB. Resolves how it went; never rejects.
 * @param options the working folder and environment (this process's by default).
 */
export function run(
  file: string,
  args: readonly string[],
  timeoutMs: number,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    try {
      execFile(
        file,
        args,
        { ...options, timeout: timeoutMs, maxBuffer: 64 * 1024, encoding: 'utf8', windowsHide: true, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          if (!error) {
            resolve({ kind: 'ok', stdout });
            return;
          }
          const failure = error as Omit<NodeJS.ErrnoException, 'code'> & {
            killed?: boolean;
            signal?: NodeJS.Signals | null;
            code?: unknown;
          };
          if (failure.code === 'ENOENT') {
            resolve({ kind: 'not-found' });
          } else if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
            resolve({ kind: 'too-large' });
          } else if (typeof failure.code === 'number') {
            resolve({ kind: 'failed', status: `status ${failure.code}`, stderr: firstLine(stderr) });
          } else if (failure.killed) {
            resolve({ kind: 'timeout' });
          } else if (failure.signal) {
            resolve({ kind: 'failed', status: `signal ${failure.signal}`, stderr: firstLine(stderr) });
          } else {
            resolve({ kind: 'spawn-error', message: describeError(error) });
          }
        },
      );
    } catch (error) {
      // execFile throws synchronously for invalid arguments (e.g. a NUL byte in a path).
      resolve({ kind: 'spawn-error', message: describeError(error) });
    }
  });
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return clip(line.trim());
}

/** `text` cut to 200 characters with `…` appended when longer: for quoting untrusted text inside a reason. */
export function clip(text: string): string {
  return text.length > MAX_REASON_DETAIL ? `${text.slice(0, MAX_REASON_DETAIL)}…` : text;
}

/** An error's message, prefixed with its errno code (`EACCES: …`) when the message does not already name it. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(String(code)) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
