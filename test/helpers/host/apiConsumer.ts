// The test-only extension test/fixtures/api-consumer, as the suite drives it: a real second
// extension that uses DSH Bridge's API under its own owner (and plays the attacker in `probe`).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** What test/fixtures/api-consumer/extension.js exports. */
export interface Consumer {
  /** Opens a session under the consumer's own owner. */
  open(name: string): Promise<{ sessionId: string }>;
  /** Sends `input` to its session and resolves with the command's output. */
  send(id: string, input: string): Promise<{ output: string }>;
  /** A scrollback page of its session. */
  read(id: string): { text: string };
  /** Its own sessions. */
  list(): { sessionId: string }[];
  /** Closes its session; resolves false when there was none. */
  close(id: string): Promise<boolean>;
  /** Starts recording the session events it receives. */
  subscribe(): void;
  /** The session events recorded since `subscribe`, with the keys each event object had. */
  events(): { keys: string[]; sessionId: string; kind: string }[];
  /** Tries every route it knows to the given foreign sessions; resolves with what it reached. */
  probe(foreignIds: string[], maxId: number, forbiddenStrings: string[]): Promise<string[]>;
}

/** The consumer extension's exports, activating it first if needed. */
export async function consumer(): Promise<Consumer> {
  const ext = vscode.extensions.getExtension<Consumer>('dsh-test.api-consumer');
  assert.ok(ext, 'the test-only extension test/fixtures/api-consumer is not loaded');
  return ext.isActive ? ext.exports : ext.activate();
}
