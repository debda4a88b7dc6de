/**
 * `pty-zsh`: the node-pty backend running zsh (session/ptyBackend.ts) as a login interactive shell
 * on zsh's controlled startup files (controlledPrompt.ts): `zsh -l -i -s <private ZDOTDIR>`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TerminalConfig } from '../config';
import type { PtyModule } from '../session/nodePty';
import { type PtyBackendOptions, PtyShellBackend } from '../session/ptyBackend';
import type { ShellDialect } from '../session/shellDialect';
import type { Log } from '../../common/log';
import { USER_ZDOTDIR_VARIABLE, ZSH_STARTUP_FILES, zshStartupFiles } from './controlledPrompt';

/**
 * zsh's dialect: a private ZDOTDIR folder (mode 0700) with the four controlled startup files; zsh
 * starts as a login interactive shell (it reads .zprofile and .zlogin, as a macOS terminal's zsh
 * does) with `ZDOTDIR` pointing there and the person's own ZDOTDIR, if any, in
 * {@link USER_ZDOTDIR_VARIABLE}. `-s` makes the folder's path a positional parameter (cleared by
 * the first file) rather than a script to run: it is on the command line only so the session tells
 * its own shell from a program a startup file `exec`ed.
 */
export const zshDialect: ShellDialect = {
  name: 'zsh',
  rcName: 'zdotdir',
  prepare(nonce, rcPath, options, env) {
    fs.mkdirSync(rcPath, { mode: 0o700 });
    const files = zshStartupFiles(nonce, rcPath, options);
    for (const name of ZSH_STARTUP_FILES) fs.writeFileSync(path.join(rcPath, name), files[name], { mode: 0o600 });
    const added: Record<string, string> = { ZDOTDIR: rcPath };
    if (env.ZDOTDIR !== undefined) added[USER_ZDOTDIR_VARIABLE] = env.ZDOTDIR;
    return { args: ['-l', '-i', '-s', rcPath], env: added };
  },
};

/** The node-pty backend running zsh. `config` is read at each spawn. */
export class PtyZshBackend extends PtyShellBackend {
  constructor(pty: PtyModule, config: () => TerminalConfig, log: Log, options: PtyBackendOptions = {}) {
    super(zshDialect, pty, config, log, options);
  }
}
