/**
 * The `dsh.lsp.servers` setting: language servers the user configures, one navigation provider
 * each (plain Node, no `vscode` import). Validated on load: a bad entry is reported in one readable
 * sentence naming the setting and the entry, and skipped; the others still work.
 */
import { integerProblem } from '../../common/integerInput';
import { SETTING } from '../../common/ids';

import { isFileExtension, isLanguageId, isProviderId } from '../registrationRules';

/** The setting's name (package.json `contributes.configuration`). */
export const SERVERS_SETTING = SETTING.lspServers;

/**
 * One configured language server, as validated by {@link parseServerConfigs}.
 * - `id`: provider id on the seam (1–64 letters, digits, `.`, `_`, `-`, starting with a letter or
 *   digit), unique in the setting.
 * - `command`: the program (an absolute path, a path relative to the first workspace folder, or a
 *   name on PATH), non-empty. While the agent sandbox is on, a server is not started when this
 *   program (links and `..` followed) or its `#!` interpreter lies in a folder sandboxed commands
 *   can write (the workspace folders among them): servers run outside the sandbox
 *   (`./launchGuard.ts`; the answer is `no_provider`, `details.reason: 'sandbox_writable'`).
 * - `args`: its arguments (default `[]`), e.g. `['start']` for bash-language-server,
 *   `['--stdio']` for typescript-language-server. While the agent sandbox is on, an argument (or an
 *   option's value after `=`) that names a file or folder in such a folder refuses the start too
 *   (`node ./server.js`: the interpreter would run a script a sandboxed command can write).
 * - `extensions`: extension -> languageId, e.g. `{'.sh': 'shellscript'}`; keys lower case with one
 *   leading dot; the languageId is what `didOpen` sends.
 * - `initializationOptions`: passed as-is in the LSP `initialize` request (optional).
 * - `readyTimeoutMs`: how long a query waits for the server to start and finish its initial work
 *   before an empty answer is reported as "not ready" (optional; default
 *   {@link DEFAULT_READY_TIMEOUT_MS}).
 */
export interface StdioServerConfig {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly extensions: Readonly<Record<string, string>>;
  readonly initializationOptions?: unknown;
  readonly readyTimeoutMs?: number;
}

/** Default bound (ms) a query waits for a server that is starting or indexing. */
export const DEFAULT_READY_TIMEOUT_MS = 20_000;

/** What {@link parseServerConfigs} returns: the valid entries in setting order, and one message per bad entry. */
export interface ParsedServers {
  readonly servers: readonly StdioServerConfig[];
  readonly errors: readonly string[];
}

const KNOWN_KEYS = new Set(['id', 'command', 'args', 'extensions', 'initializationOptions', 'readyTimeoutMs']);

/**
 * Validate the raw value of `dsh.lsp.servers`.
 *
 * Rules per entry (all problems of one entry are joined into one message):
 * - an object with a string `id` as for every seam provider, not used by an earlier entry
 *   (a later duplicate is the one skipped);
 * - `command`: a non-empty string;
 * - `args`: absent or an array of strings;
 * - `extensions`: a non-empty object; every key lower case with one leading dot and no other dot,
 *   slash or space (`.sh`), every value a non-empty languageId without spaces;
 * - `readyTimeoutMs`: absent or an integer from 1 to 600000;
 * - unknown keys are problems too (a typo such as `extension` must not pass silently).
 *
 * @param raw the setting's value (anything; `undefined`/`null` mean "no servers").
 * @returns valid entries (copied) and errors like
 *   `dsh.lsp.servers[1] ('bash'): extension '.SH' is not lower case: use '.sh'; skipped`.
 *   Never throws.
 */
export function parseServerConfigs(raw: unknown): ParsedServers {
  if (raw === undefined || raw === null) return { servers: [], errors: [] };
  if (!Array.isArray(raw)) {
    return {
      servers: [],
      errors: [`${SERVERS_SETTING} must be an array of {id, command, args, extensions}, got ${typeof raw}; no server is configured`],
    };
  }
  const servers: StdioServerConfig[] = [];
  const errors: string[] = [];
  const ids = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const where = `${SERVERS_SETTING}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push(
        `${where} must be an object {id, command, args, extensions}, got ${Array.isArray(entry) ? 'an array' : JSON.stringify(entry)}; skipped`,
      );
      return;
    }
    const e = entry as Record<string, unknown>;
    const problems: string[] = [];
    const id = e.id;
    if (!isProviderId(id)) {
      problems.push(
        `id ${JSON.stringify(id)} is invalid: use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. 'bash')`,
      );
    } else if (ids.has(id)) {
      problems.push(`id '${id}' is used by an earlier entry: ids must be unique`);
    }
    if (typeof e.command !== 'string' || e.command.trim() === '') {
      problems.push(`command is missing: give the server's program, e.g. "bash-language-server" or an absolute path`);
    }
    if (e.args !== undefined && (!Array.isArray(e.args) || e.args.some((a) => typeof a !== 'string'))) {
      problems.push(`args must be an array of strings, e.g. ["start"]`);
    }
    const extensions: Record<string, string> = {};
    const ext = e.extensions;
    if (typeof ext !== 'object' || ext === null || Array.isArray(ext) || Object.keys(ext).length === 0) {
      problems.push(`extensions must be a non-empty object mapping extension to languageId, e.g. {".sh": "shellscript"}`);
    } else {
      for (const [key, languageId] of Object.entries(ext as Record<string, unknown>)) {
        if (!isFileExtension(key))
          problems.push(`extension ${JSON.stringify(key)} is invalid: use one leading dot and no other dot, slash or space (e.g. ".sh")`);
        else if (key !== key.toLowerCase())
          problems.push(`extension '${key}' is not lower case: use '${key.toLowerCase()}' (files match case-insensitively)`);
        if (!isLanguageId(languageId)) {
          problems.push(
            `languageId for '${key}' must be a non-empty string without spaces (e.g. "shellscript"), got ${JSON.stringify(languageId)}`,
          );
        }
        extensions[key] = String(languageId);
      }
    }
    const timeoutProblem =
      e.readyTimeoutMs === undefined ? undefined : integerProblem(e.readyTimeoutMs, 'readyTimeoutMs', 1, 600_000, 'in milliseconds');
    if (timeoutProblem) problems.push(timeoutProblem);
    const unknown = Object.keys(e).filter((k) => !KNOWN_KEYS.has(k));
    if (unknown.length > 0)
      problems.push(
        `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} (known: ${[...KNOWN_KEYS].join(', ')})`,
      );
    if (problems.length > 0) {
      errors.push(`${where}${typeof id === 'string' ? ` ('${id}')` : ''}: ${problems.join('; ')}; skipped`);
      if (isProviderId(id) && !ids.has(id)) ids.add(id);
      return;
    }
    ids.add(id as string);
    servers.push({
      id: id as string,
      command: e.command as string,
      args: [...((e.args as string[] | undefined) ?? [])],
      extensions,
      ...(e.initializationOptions !== undefined ? { initializationOptions: e.initializationOptions } : {}),
      ...(e.readyTimeoutMs !== undefined ? { readyTimeoutMs: e.readyTimeoutMs as number } : {}),
    });
  });
  return { servers, errors };
}
