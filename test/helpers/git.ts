/** Test support: running real git in a test's own repositories, apart from the machine's setup. */
import { execFileSync } from 'node:child_process';

/** The environment tests run git in: a fixed author and committer, no system-wide configuration. */
export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Runs `git args` in `cwd` (the process's own when undefined) with GIT_TEST_ENV; its stdout. Throws when git fails. */
export function git(cwd: string | undefined, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_TEST_ENV, stdio: 'pipe' }).toString();
}
