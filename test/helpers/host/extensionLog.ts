// The extension's own log ("DSH Bridge" in the Output panel) as VS Code writes it to disk, read
// from a test in the extension host.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The text of `DSH Bridge.log` under the profile folder the launcher names in DSH_USER_DATA_DIR
 * (scripts/lib/run-in-host.mjs); empty until VS Code has written the file (it writes
 * asynchronously: poll with `until`).
 * @throws Error when DSH_USER_DATA_DIR is not set (a run not started by the launcher).
 */
export function extensionLogText(): string {
  const userData = process.env.DSH_USER_DATA_DIR;
  if (!userData) throw new Error('DSH_USER_DATA_DIR is not set by the launcher');
  const file = (fs.readdirSync(userData, { recursive: true }) as string[]).find((f) => f.endsWith(`${path.sep}DSH Bridge.log`));
  return file ? fs.readFileSync(path.join(userData, file), 'utf8') : '';
}
