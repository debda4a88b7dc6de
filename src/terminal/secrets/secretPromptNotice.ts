/**
 * What the person is told when a program in an agent's session reads a secret with echo off (a
 * password prompt): which program asks in which session, and the one action that answers it, a
 * one-line take-over of the session's panel terminal (TerminalService.takeOverLine). Plain data
 * (no `vscode` import): the panel (vscode/terminal/agentTerminals.ts) shows it as a notification.
 */
import { programName } from '../input/echoOffInput';
import type { InputReceiver } from '../types';

/** The label of the notification's action: it focuses the session's panel terminal in a one-line take-over. */
export const ANSWER_IN_TERMINAL = 'Answer in Terminal';

/** A notice about one password prompt. */
export interface SecretPromptNotice {
  /** The session whose program asks, e.g. `pty-1`. */
  sessionId: string;
  /** The program that reads (its command's file name, e.g. `sudo`; `bash` for `read -s`), or `a program` when not known. */
  program: string;
  /** The notification's text: `<program> asks for a password in <sessionId>.` and what typing there does. */
  message: string;
  /** The label of its one action (ANSWER_IN_TERMINAL). */
  action: string;
}

/**
 * The notice for a password prompt in `sessionId`, whose input goes to `receiver` now (the
 * session's `sendTarget().receiver`): a program receiver is named by its command's file name;
 * any other (the shell's prompt, an exited session) as `a program`.
 */
export function secretPromptNotice(sessionId: string, receiver: InputReceiver): SecretPromptNotice {
  const program = receiver.kind === 'program' ? programName(receiver.process.command) : 'a program';
  return {
    sessionId,
    program,
    message: `${program} asks for a password in ${sessionId}. Type it in the terminal: it goes to the program only, never to the agent.`,
    action: ANSWER_IN_TERMINAL,
  };
}
