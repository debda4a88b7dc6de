/**
 * The readiness decision of one send or wait: why it returns now, or what it waits for. A pure
 * function of a {@link ReadinessSnapshot}; the session gathers the snapshot (markers, the PTY's
 * foreground process group, the /proc probe's waits, quiet, time) and acts on the answer. Order:
 * 1. the shell exited → `session_exit`;
 * 2. the prompt marker (this session's nonce) past the send's baseline, with the prompt text
 *    after it, while the PTY's foreground process group is the shell's own → `stdin_read` /
 *    `shell-prompt`; the continuation marker seen during the send, with its text after it,
 *    likewise → `stdin_read` / `shell-continuation`. This is decided the moment that evidence
 *    arrives. Only where the foreground group cannot be read (no /proc), or when the send's input
 *    may be read after a prompt that is not its answer (`typeAhead`: several lines read one at
 *    a time, or typed while a command ran), the marker must also be followed by `promptGraceMs`
 *    of quiet;
 * 3. the Linux probe, from `probeFrom`: a thread of the foreground process group newly blocked
 *    reading the PTY, and still blocked in the same wait `promptGraceMs` later with no output in
 *    the last `promptGraceMs` → `stdin_read` / `program-input` (a program, or the shell's own
 *    `read`), or `shell-prompt` (the shell reading without a controlled prompt). The session then
 *    drains the PTY (ptyDrain.ts) before it returns, so the answer ends with what the program
 *    printed last;
 * 4. `quietThresholdMs` without output → `inferred_idle`;
 * the absolute timeout and `output_match` are decided where they happen (a timer, the output).
 */
import type { TtyWait } from '../../proc/procProbe';
import type { WaitReason, Waiting } from '../types';

/** The controlled prompt's marker seen last: PS1, PS0 (a command starts), PS2; undefined before any. */
export type LastMarker = 'prompt' | 'start' | 'continuation' | undefined;

/** A blocked read of the PTY, first seen at `at` (ms since the epoch, Date.now()). */
export interface SeenWait {
  wait: TtyWait;
  at: number;
}

/** Everything the decision needs, read at one moment. Times in ms. */
export interface ReadinessSnapshot {
  /** The moment of the look (Date.now()). */
  now: number;
  /** The shell has exited. */
  exited: boolean;
  /** ms without output, counted from the send's start at the earliest. */
  quietMs: number;
  /** The marker state of the shell (markers.ts). */
  marker: {
    last: LastMarker;
    /** Sequence number of the latest prompt marker (1-based; 0 before the first). */
    promptSeq: number;
    /** The prompt text followed the latest prompt marker. */
    promptTextSeen: boolean;
    /** The continuation prompt's text followed the latest continuation marker. */
    continuationTextSeen: boolean;
  };
  /** The send or wait being decided. */
  send: {
    /** `marker.promptSeq` when the send started: only a later prompt answers it. */
    baselineSeq: number;
    /** A continuation marker arrived during the send. */
    sawContinuation: boolean;
    /** Keys (not text) were pressed at the shell's prompt. */
    keysAtPrompt: boolean;
    /**
     * The send's input may be read after a prompt that is not its answer: it typed more than one
     * line read line by line (text written without the line editor's bracketed paste, or several
     * Enter keys), or it typed while the shell was not at its prompt (the prompt ending the
     * running command comes first). Then only a prompt followed by `promptGraceMs` of quiet
     * answers it.
     */
    typeAhead: boolean;
    /** From this moment (ms since the epoch) the probe may report a wait. */
    probeFrom: number;
    /** A blocked read seen at an earlier look, not yet confirmed. */
    seenWait?: SeenWait;
    /** The foreground process group at the previous look. */
    lastForegroundGroup?: number;
  };
  /** The shell's pid, which is also its process group id. */
  shellPid: number;
  /**
   * The shell's process runs another executable than the shell started (it `exec`ed a program):
   * its prompt markers prove nothing, and what reads the terminal is that program.
   */
  shellReplaced?: boolean;
  /** The PTY's foreground process group (tpgid); undefined when it cannot be read (no /proc probe). */
  foregroundGroup: number | undefined;
  /** The Linux /proc probe is in use. */
  probe: boolean;
  /**
   * Waits of the foreground group's threads on the PTY that are new since the send started, or
   * undefined when not looked at: the decision asks for them with `{kind: 'look'}` when it needs them.
   */
  waits?: TtyWait[];
  timing: { promptGraceMs: number; quietThresholdMs: number };
}

/**
 * What to do now:
 * - `finish`: return with `reason` (and `waiting`; `foregroundPid` names the process that reads);
 * - `look`: the probe is due: decide again with `waits` filled in;
 * - `continue`: nothing decided; `seenWait` is the read to confirm at a later look, `changed`
 *   says whether the next look should come soon (see pollBackoff.ts), `dueInMs` when it must come
 *   at the latest (the probe's start, the quiet threshold).
 */
export type ReadinessDecision =
  | { kind: 'finish'; reason: WaitReason; waiting?: Waiting; foregroundPid?: number }
  | { kind: 'look' }
  | { kind: 'continue'; seenWait: SeenWait | undefined; changed: boolean; dueInMs: number };

/** Decides readiness from one snapshot, in the order of the module comment. Never throws. */
export function decideReadiness(s: ReadinessSnapshot): ReadinessDecision {
  if (s.exited) return { kind: 'finish', reason: 'session_exit' };
  const { promptGraceMs, quietThresholdMs } = s.timing;
  const tpgid = s.foregroundGroup;
  const shellInForeground = tpgid === undefined || tpgid === s.shellPid;
  // The foreground group read as the shell's own proves the command ended (bash takes the
  // terminal back before it prints the prompt); without it, quiet after the marker stands in.
  const proven = tpgid !== undefined && !s.send.typeAhead;
  if (shellInForeground && !s.shellReplaced && (proven || s.quietMs >= promptGraceMs)) {
    if (s.marker.last === 'prompt' && s.marker.promptSeq > s.send.baselineSeq && s.marker.promptTextSeen) {
      return { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt' };
    }
    if (s.marker.last === 'continuation' && s.send.sawContinuation && (s.marker.continuationTextSeen || s.quietMs >= promptGraceMs)) {
      return { kind: 'finish', reason: 'stdin_read', waiting: 'shell-continuation' };
    }
  }
  let seenWait = s.send.seenWait;
  if (s.probe && tpgid !== undefined && s.now >= s.send.probeFrom) {
    if (s.waits === undefined) return { kind: 'look' };
    // The shell itself reading its terminal counts only in a blocking read: readline waits in
    // pselect6 between keys too, and under load it was seen re-blocking there before it had
    // echoed the send's input. Keys pressed at the prompt are one small write that readline takes
    // at once; when they did not end the line (Up, Tab) no prompt follows, and readline's wait for
    // the next key (pselect6) is the answer. A program counts in any wait on the terminal.
    // In the shell's own group, only the shell's own waits answer: another process of its group
    // reading the terminal (started with job control off) is not the shell reading the input.
    const candidates =
      tpgid === s.shellPid ? s.waits.filter((w) => w.pid === s.shellPid && (w.via === 'read' || s.send.keysAtPrompt)) : s.waits;
    const same =
      seenWait &&
      candidates.find((w) => w.pid === seenWait!.wait.pid && w.tid === seenWait!.wait.tid && w.switches === seenWait!.wait.switches);
    const [first] = candidates;
    if (first === undefined) seenWait = undefined;
    else if (!same) seenWait = { wait: first, at: s.now };
    // A read counts once it lasted promptGraceMs with no output meanwhile: a program blocks while
    // what it printed just before can still be on its way to us (and a shell that just printed
    // its prompt reads at once, before its marker has reached us).
    else if (s.now - seenWait!.at >= promptGraceMs && s.quietMs >= promptGraceMs) {
      const pid = same.pid;
      if (tpgid !== s.shellPid || s.shellReplaced)
        return { kind: 'finish', reason: 'stdin_read', waiting: 'program-input', foregroundPid: pid };
      // After PS0 the shell runs a command that reads (its `read` builtin, or a program it became
      // with `exec`); otherwise it waits for a command without a controlled prompt (both PS1 and
      // PROMPT_COMMAND were replaced).
      return {
        kind: 'finish',
        reason: 'stdin_read',
        waiting: s.marker.last === 'start' ? 'program-input' : 'shell-prompt',
        foregroundPid: pid,
      };
    }
  }
  if (s.quietMs >= quietThresholdMs) return { kind: 'finish', reason: 'inferred_idle' };
  const dueInMs = Math.min(
    quietThresholdMs - s.quietMs,
    s.now < s.send.probeFrom ? s.send.probeFrom - s.now : Infinity,
    seenWait ? Math.max(seenWait.at + promptGraceMs - s.now, promptGraceMs - s.quietMs, 1) : Infinity,
  );
  return { kind: 'continue', seenWait, changed: tpgid !== s.send.lastForegroundGroup || seenWait !== undefined, dueInMs };
}
