// A script run in plain Node from inside the extension host: the host's own binary with
// ELECTRON_RUN_AS_NODE, so what it does (writing thousands of files) does not hold the thread of
// the host a test or benchmark measures.
import { spawn } from 'node:child_process';

/**
 * Runs `script` (CommonJS source, its arguments in `process.argv[1..]`) in a Node child process
 * with `args`; resolves when it exits 0.
 * @throws Error naming the exit code or signal and the child's stderr otherwise.
 */
export function runNodeChild(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, ...args], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the Node child exited with ${signal ?? code}: ${stderr.trim()}`)),
    );
  });
}
