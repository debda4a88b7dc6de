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

/**
 * Whether the terminal is set the way readline sets it while it reads a line (rl_prep_terminal:
 * ICANON and ECHO off, output processing OPOST left on): true; false for other settings, such as
 * `stty -icanon` (ECHO stays on) or a program that crashed in raw mode (OPOST off too); undefined
 * when the settings cannot be read.
 */
export async function readlineSettings(ptsPath: string): Promise<boolean | undefined> {
  const settings = await readTermios(ptsPath);
  if (!settings) return undefined;
  return flagOn(settings, '-icanon') && flagOn(settings, '-echo') && flagOn(settings, 'opost');
}
