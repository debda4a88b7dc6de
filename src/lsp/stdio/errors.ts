/**
 * The errors a configured language server's answers fail with (plain Node), each saying what the
 * caller can do: wait and retry, fix the setting, or read the server's last stderr lines.
 */
import { notReadyError as sourceNotReady } from '../sourceErrors';
import { LspError } from '../types';
import type { CrashPolicy } from './backoff';
import { SERVERS_SETTING, StdioServerConfig } from './config';
import { errorMessage } from '../../common/errorMessage';
import type { SandboxWritableLaunch } from './launchGuard';

/** How the server last exited on its own, with its last stderr lines. */
export interface LastCrash {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: readonly string[];
}

/** `no_provider` (`details.reason: 'not_ready'`): the server is not available or not ready, saying `why`. */
export function notReadyError(config: StdioServerConfig, why: string): LspError {
  const extensions = Object.keys(config.extensions);
  return sourceNotReady(`language support for ${extensions.join(', ')} (language server '${config.id}')`, why, 'Wait and retry', {
    providerId: config.id,
    extensions,
  });
}

/** `no_provider` (`details.reason: 'not_ready'`): the server was stopped; `why` is added in parentheses when given. */
export function stoppedError(config: StdioServerConfig, why?: string): LspError {
  return new LspError('no_provider', `language server '${config.id}' was stopped${why ? ` (${why})` : ''}; retry`, {
    providerId: config.id,
    reason: 'not_ready',
  });
}

/** `provider_failed` (`details.reason: 'crashed'`): crashed too often within the policy's window, with its last stderr lines. */
export function crashedError(config: StdioServerConfig, policy: CrashPolicy, last: LastCrash | undefined): LspError {
  const stderr = last?.stderr ?? [];
  return new LspError(
    'provider_failed',
    `language server '${config.id}' failed: it crashed ${policy.recentCrashes()} times within ${Math.round(policy.windowMs / 1000)} s (last exit code ${last?.code ?? 'none'}, signal ${last?.signal ?? 'none'}) and is not restarted until ${SERVERS_SETTING} changes.` +
      (stderr.length > 0 ? ` Last stderr lines:\n${stderr.slice(-10).join('\n')}` : ' It wrote nothing to stderr.'),
    { providerId: config.id, reason: 'crashed', stderr, setting: SERVERS_SETTING },
  );
}

/** `provider_failed`: the server answered `what` (an operation or method) with an error. */
export function failedOnError(config: StdioServerConfig, what: string, e: unknown): LspError {
  // A JSON-RPC error answer is a plain object with a message.
  const said = (e as { message?: unknown } | null)?.message;
  const message = typeof said === 'string' ? said : errorMessage(e);
  return new LspError(
    'provider_failed',
    `language server '${config.id}' failed on ${what}: ${message}`,
    { providerId: config.id },
    { cause: e },
  );
}

/**
 * `no_provider` (`details.reason: 'sandbox_writable'`): the agent sandbox is on and the server would
 * run from a folder sandboxed commands can write (see `./launchGuard.ts`), so it was not started.
 * Names the server, the path, the folder and what to do. `details`: `providerId`, `setting`,
 * `command`, `refused` (program, interpreter or argument N), `path`, `folder`.
 */
export function sandboxWritableError(config: StdioServerConfig, refusal: SandboxWritableLaunch): LspError {
  return new LspError(
    'no_provider',
    `language server '${config.id}' was not started: the agent sandbox is on, and ${refusal.message}. DSH Bridge starts language servers outside the sandbox, ` +
      `so a sandboxed command could replace what it runs there and have it run with your full permissions. In the entry with id '${config.id}' of ${SERVERS_SETTING}, ` +
      `configure "command" (and any script or file in "args") as an absolute path outside the folders sandboxed commands can write (the workspace folders, the sandbox's temp and storage folders, ` +
      `chat.agent.sandbox.fileSystem allowWrite), or turn the agent sandbox off.`,
    {
      providerId: config.id,
      reason: 'sandbox_writable',
      setting: SERVERS_SETTING,
      command: config.command,
      refused: refusal.what,
      path: refusal.place.path,
      folder: refusal.place.folder,
    },
    { cause: refusal },
  );
}
