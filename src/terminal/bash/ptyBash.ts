/**
 * `pty-bash`: the node-pty backend running bash (session/ptyBackend.ts) on bash's controlled
 * prompt (controlledPrompt.ts): `bash --rcfile <rc> -i`.
 */
import * as fs from 'node:fs';
import type { TerminalConfig } from '../config';
import type { PtyModule } from '../session/nodePty';
import { type PtyBackendOptions, PtyShellBackend } from '../session/ptyBackend';
import type { ShellDialect } from '../session/shellDialect';
import type { Log } from '../../common/log';
import { controlledPromptRc } from './controlledPrompt';

export { CLOSE_MAX_MS } from '../session/sessionTeardown';
/** Options of {@link PtyBashBackend} (the same for every PTY backend). */
export type PtyBashOptions = PtyBackendOptions;

/**
 * bash's dialect: one rc file given to `--rcfile`, which loads /etc/bash.bashrc and ~/.bashrc and
 * then installs the controlled prompt (bash(1), INVOCATION: `--rcfile` replaces ~/.bashrc for an
 * interactive non-login shell).
 */
export const bashDialect: ShellDialect = {
  name: 'bash',
  rcName: 'bashrc',
  prepare(nonce, rcPath, options) {
    fs.writeFileSync(rcPath, controlledPromptRc(nonce, options), { mode: 0o600 });
    return { args: ['--rcfile', rcPath, '-i'], env: {} };
  },
};

/** The node-pty backend running bash. `config` is read at each spawn. */
export class PtyBashBackend extends PtyShellBackend {
  constructor(pty: PtyModule, config: () => TerminalConfig, log: Log, options: PtyBashOptions = {}) {
    super(bashDialect, pty, config, log, options);
  }
}
