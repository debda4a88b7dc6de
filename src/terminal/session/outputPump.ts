/**
 * The data pump of a PTY session: every chunk the PTY gives goes through the marker parser; its
 * markers go to the marker state, the command record and the active send, and its text to the
 * terminal modes, the scrollback (the prompt shown once text follows it), the command record, the
 * output listeners, the message of the day and the active send, in that order.
 */
import type { CommandHistory } from '../history/commandHistory';
import type { CommandEvent } from '../history/commandRecord';
import { MarkerParser, PROMPT_TEXT } from '../readiness/markers';
import type { ActiveSend } from '../readiness/activeSend';
import type { ShellMarkers } from '../readiness/shellMarkers';
import { onlyControls } from '../output/onlyControls';
import type { Scrollback } from '../output/scrollback';
import { MessageOfTheDay } from './messageOfTheDay';
import { TerminalModes } from '../output/terminalModes';
import type { Disposable } from '../types';

/** Most UTF-16 code units of control sequences held back from the scrollback (see onText). */
const HELD_CONTROLS_MAX = 4096;

/** What the pump feeds, owned by the session. */
export interface PumpTargets {
  readonly markers: ShellMarkers;
  readonly commands: CommandHistory;
  readonly scrollback: Scrollback;
  /** The send or wait in flight, if any. */
  active(): ActiveSend | undefined;
  /** Set while the open waits for the first prompt: called at prompt text (and so at the first prompt). */
  firstPromptWaiter(): (() => void) | undefined;
}

/** Feeds a session's PTY output to its targets and listeners; keeps when output last came and the message of the day. */
export class OutputPump {
  /** Output before the first prompt (messageOfTheDay.ts). */
  readonly motd = new MessageOfTheDay();
  /** When the PTY last gave output (ms, Date.now()). */
  lastDataAt = Date.now();
  /** The alternate screen and application cursor keys (DECCKM) as the output set them. */
  readonly modes = new TerminalModes();
  private readonly parser: MarkerParser;
  private scrollbackOwesPrompt = false;
  /** The scrollback's text ends with a line end (or is empty). */
  private scrollbackAtLineStart = true;
  /** Control sequences held back from the scrollback until text follows them (see onText). */
  private heldControls = '';
  private readonly outputListeners = new Set<(text: string) => void>();
  private readonly commandListeners = new Set<(event: CommandEvent) => void>();

  /** @param nonce the controlled prompt's nonce (markers.ts). */
  constructor(
    nonce: string,
    private readonly to: PumpTargets,
  ) {
    this.parser = new MarkerParser(nonce);
  }

  /** Streams the terminal's output as shown (markers removed, the prompt as PROMPT_TEXT); see BackendSession.onOutput. */
  onOutput(listener: (text: string) => void): Disposable {
    this.outputListeners.add(listener);
    return { dispose: () => this.outputListeners.delete(listener) };
  }

  /** Streams the command record's boundaries; see BackendSession.onCommand. */
  onCommand(listener: (event: CommandEvent) => void): Disposable {
    this.commandListeners.add(listener);
    return { dispose: () => this.commandListeners.delete(listener) };
  }

  /** One chunk of the PTY's output (decoded text, as node-pty gives it). */
  push(chunk: string): void {
    this.lastDataAt = Date.now();
    const active = () => this.to.active();
    active()?.poke();
    for (const event of this.parser.push(chunk)) {
      if (event.kind === 'text') {
        this.onText(event.text);
        continue;
      }
      if (event.kind === 'drain') {
        active()?.onDrain(event.seq);
        continue;
      }
      this.to.markers.apply(event);
      const boundary = this.to.commands.marker(event);
      if (boundary) for (const listener of this.commandListeners) listener(boundary);
      switch (event.kind) {
        case 'prompt':
          active()?.onPrompt();
          break;
        case 'prompt-text':
          this.scrollbackOwesPrompt = true;
          this.to.firstPromptWaiter()?.();
          break;
        case 'start':
          active()?.onCommandStart();
          break;
        case 'continuation':
          active()?.onContinuation();
          break;
      }
    }
    active()?.onMarkersApplied();
  }

  private onText(text: string): void {
    this.modes.push(text);
    // The prompt text was swallowed with its marker; the scrollback shows it only once text
    // follows it, so a page read at an idle prompt ends with the last output line. Control
    // sequences alone at the start of a line (zle resets attributes and erases below before its
    // prompt, erases to the end of the line and sets keypad mode after it) draw nothing: the
    // scrollback takes them with the next text, so they make no line of their own.
    const cut = text.lastIndexOf('\n') + 1;
    const tail = text.slice(cut);
    const lineStart = cut > 0 || this.scrollbackAtLineStart || this.scrollbackOwesPrompt;
    const holdTail = lineStart && tail !== '' && this.heldControls.length < HELD_CONTROLS_MAX && onlyControls(tail);
    const body = holdTail ? text.slice(0, cut) : text;
    let shown = text;
    if (body !== '') {
      if (this.scrollbackOwesPrompt) shown = PROMPT_TEXT + text;
      this.to.scrollback.append(this.heldControls + (this.scrollbackOwesPrompt ? PROMPT_TEXT : '') + body);
      this.heldControls = '';
      this.scrollbackOwesPrompt = false;
      this.scrollbackAtLineStart = body.endsWith('\n');
    }
    if (holdTail) this.heldControls += tail;
    this.to.commands.text(text);
    for (const listener of this.outputListeners) listener(shown);
    this.to.markers.text(text);
    if (this.to.firstPromptWaiter() && this.to.markers.promptSeq === 0) this.motd.push(text);
    this.to.active()?.onText(text);
  }
}
