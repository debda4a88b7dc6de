/**
 * The PTY's terminal settings (termios(3)) as `stty -a` prints them, read by an asynchronous
 * child process: nothing waits for stty on the extension host's thread.
 */
import { execFile } from 'node:child_process';

/** `stty -F <ptsPath> -a` output, or '' when the settings cannot be read within 2 s. Never rejects. */
export function readTermios(ptsPath: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('stty', ['-F', ptsPath, '-a'], { encoding: 'utf8', timeout: 2000 }, (error, stdout) => resolve(error ? '' : stdout));
  });
}

/** True when `stty -a` output has the flag set (`icanon`), false when it is off (`-icanon`) or absent. */
function flagOn(settings: string, flag: string): boolean {
  return new RegExp(`(^|\\s)${flag}(\\s|$)`).test(settings);
}

/**
 * A password prompt: ECHO off while ICANON is on; false when the settings cannot be read.
 * Full-screen programs (vim, less) turn both off and are not password prompts.
 */
export async function echoDisabled(ptsPath: string): Promise<boolean> {
  const settings = await readTermios(ptsPath);
  return flagOn(settings, '-echo') && flagOn(settings, 'icanon');
}

/** True when the PTY is in canonical (line-by-line) mode, ICANON; false when unreadable. */
export async function canonicalMode(ptsPath: string): Promise<boolean> {
  return flagOn(await readTermios(ptsPath), 'icanon');
}

/** True when ICANON is on, false when it is off, undefined when the settings cannot be read. */
export async function canonicalModeIfKnown(ptsPath: string): Promise<boolean | undefined> {
  const settings = await readTermios(ptsPath);
  return flagOn(settings, 'icanon') ? true : flagOn(settings, '-icanon') ? false : undefined;
}
