/**
 * The terminal API other extensions get follows workspace trust as the terminal tools and palette
 * commands do: in Restricted Mode every call that would start a process (a shell, or a command in
 * one) is refused before the service sees it. The trust is read on every call, as VS Code can grant
 * it while the window is open (`onDidGrantWorkspaceTrust`); it is never revoked without a reload.
 */
import * as vscode from 'vscode';
import type { TerminalApi } from '../../terminal/terminalApi';
import { UNTRUSTED_MESSAGE } from '../tools/terminal/terminalTool';

/**
 * What a refused call throws: `code` is `UNTRUSTED_WORKSPACE` (callers branch on `code`, as on
 * the service's TerminalError codes); the message names the call, why, and how to trust.
 */
export class UntrustedWorkspaceError extends Error {
  readonly code = 'UNTRUSTED_WORKSPACE';
  constructor(call: string) {
    super(`exports.terminal.${call} refused: ${UNTRUSTED_MESSAGE}`);
    this.name = 'TerminalError';
  }
}

/**
 * `api` with `open`, `send` and `startBackground` refused while the workspace is not trusted
 * (`vscode.workspace.isTrusted` false): `open` and `send` reject, `startBackground` throws,
 * {@link UntrustedWorkspaceError} in each case. Reads, lists, signals and closes pass through:
 * they start nothing, and no session exists in Restricted Mode to act on.
 * @returns a frozen {@link TerminalApi}.
 */
export function trustedTerminalApi(api: TerminalApi, isTrusted: () => boolean = () => vscode.workspace.isTrusted): TerminalApi {
  return Object.freeze({
    ...api,
    async open(...args: Parameters<TerminalApi['open']>) {
      if (!isTrusted()) throw new UntrustedWorkspaceError('open');
      return api.open(...args);
    },
    async send(...args: Parameters<TerminalApi['send']>) {
      if (!isTrusted()) throw new UntrustedWorkspaceError('send');
      return api.send(...args);
    },
    startBackground(...args: Parameters<TerminalApi['startBackground']>) {
      if (!isTrusted()) throw new UntrustedWorkspaceError('startBackground');
      return api.startBackground(...args);
    },
  });
}
