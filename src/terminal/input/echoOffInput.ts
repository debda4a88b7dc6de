/**
 * Input for a program that reads the terminal with echo off (a password or passphrase prompt:
 * sudo, ssh, git's credential prompt, `read -s`): the person answers it, never the agent. An
 * agent's send that would type characters into it is refused before anything is written; keys
 * that only act on the prompt (Ctrl-C to cancel it, Ctrl-D, Escape) are let through.
 */
import { TerminalError } from '../errors';
import type { SendInput } from './input';

/** How long an agent is told to wait for the person's answer (ms), with dsh_terminal_wait. */
export const PERSON_ANSWER_WAIT_MS = 300_000;

/** Whether `typed` would type characters (text, or a key that is a printable character, Space, Tab or Enter). */
export function typesText(typed: SendInput): boolean {
  if (typed.kind === 'text') return true;
  return typed.keys.some((key) => !/^Ctrl-/.test(key) && key !== 'Escape');
}

/** The program's name in a command line (`/usr/bin/sudo -k true` → `sudo`), for messages. */
export function programName(command: string | undefined): string {
  const first = command?.trim().split(/\s+/)[0] ?? '';
  return first.split('/').pop() || 'a program';
}

/** What an agent is told to do about a prompt that reads with echo off, in a result or an error. */
export function personMustAnswerGuidance(program: string): string {
  return (
    `${program} reads a secret with echo off (a password prompt): the person must type it, not you. ` +
    `They were asked to answer it in the terminal panel; wait for their answer with dsh_terminal_wait (timeoutMs ${PERSON_ANSWER_WAIT_MS}). ` +
    `Never send a password or secret yourself; to cancel the prompt, send keys ["Ctrl-C"]`
  );
}

/** PERSON_MUST_ANSWER for a send of text to `program` reading with echo off; nothing was typed. */
export function personMustAnswerError(program: string): TerminalError {
  return new TerminalError('PERSON_MUST_ANSWER', `nothing was typed: ${personMustAnswerGuidance(program)}`);
}
