/**
 * What the shell's command line may hold, as a PTY session tracks it across sends: the keys sends
 * pressed at the prompt shown now (promptKeys.ts judges the next keys against them), and whether
 * text no send at that prompt typed may be on the line (keys a program left unread, or what the
 * person typed during Take Over).
 */
import { KILL_LINE_KEYS } from '../readiness/markers';
import type { SendInput } from './input';
import type { LineKeys, LineSource, PromptKeysVerdict } from './promptKeys';

/** The command line's keys and foreign text, by the number of the prompt they were typed at (ShellMarkers.promptSeq). */
export class PromptLine {
  /** The keys sends pressed at the prompt numbered `promptSeq` since it was shown. */
  private lineKeys: { promptSeq: number; keys: LineKeys } | undefined;
  /**
   * Text the shell's command line may hold that no send at its prompt typed (LineSource): set
   * when keys go to a program (what it leaves unread reaches a later prompt) and when the person
   * types during Take Over; it lasts over prompts, since a new prompt reads what was left before
   * it, until text replaces the line (kill-whole-line first) or a prompt after `interruptedAt`
   * shows (Ctrl-C was sent at prompt `interruptedAt` and interrupted).
   */
  private foreignLine: { from: LineSource; interruptedAt?: number } | undefined;

  /**
   * The keys earlier sends pressed at prompt `promptSeq` (the one the shell shows now), which its
   * command line holds, with `foreign` set while the line may hold text no send at the prompt
   * typed; undefined when neither (a new prompt starts with an empty line; text sends replace the line).
   */
  at(promptSeq: number): LineKeys | undefined {
    const keys = this.lineKeys?.promptSeq === promptSeq ? this.lineKeys.keys : undefined;
    const foreign = this.foreignLine;
    if (!foreign || (foreign.interruptedAt !== undefined && promptSeq > foreign.interruptedAt)) return keys;
    return { ...(keys ?? { keys: [], more: 0 }), foreign: foreign.from };
  }

  /**
   * A send is about to write `input` (the bytes of `typed`) at prompt `promptSeq`.
   * @param atPrompt the shell reads it at its prompt (else a program in the foreground does).
   * @param verdict promptKeys.ts's judgement of keys where readline reads them (undefined otherwise).
   */
  sending(promptSeq: number, typed: SendInput, input: string, atPrompt: boolean, verdict: PromptKeysVerdict | undefined): void {
    this.lineKeys = verdict?.line && { promptSeq, keys: verdict.line };
    if (typed.kind === 'keys' && !atPrompt) this.foreignLine = { from: 'program' };
    else if (this.foreignLine && input.startsWith(KILL_LINE_KEYS)) this.foreignLine = undefined;
    else if (this.foreignLine && verdict && typed.kind === 'keys' && typed.keys.includes('Ctrl-C'))
      this.foreignLine.interruptedAt = promptSeq;
  }

  /** The person typed into the terminal (Take Over): the line may hold text no send typed. */
  userTyped(): void {
    this.foreignLine = { from: 'user' };
  }
}
