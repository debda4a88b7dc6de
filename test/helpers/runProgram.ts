// Running a program to its end from a test, with its output collected.
import { spawn } from 'node:child_process';

/** How a program ended and what it printed (UTF-8 text). */
export interface ProgramRun {
  /** Exit status; null when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` with `args` and exactly the environment `env` (nothing inherited), writes `stdin`
 * and closes it, and resolves when the program has exited and closed its output. Never rejects on
 * a failing program: the caller checks `code`.
 */
export function runProgram(command: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<ProgramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
