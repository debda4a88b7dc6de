/**
 * The ps(1) the extension runs: the system's (`/bin/ps`, else `/usr/bin/ps`), never one looked up
 * by name on the extension host's PATH. That PATH may hold a folder sandboxed commands can write (a
 * workspace virtualenv's `bin`), and ps runs outside the sandbox (at every send where /proc is
 * missing, as on macOS): a ps written there would run with the person's full permissions.
 * Undefined when neither exists: callers say ps is not installed.
 */
import * as fs from 'node:fs';

export const PS_PROGRAM: string | undefined = ['/bin/ps', '/usr/bin/ps'].find((p) => fs.existsSync(p));
