/**
 * What the terminal tools say of a session's ports and processes stays small however many a
 * session's programs have: bounded lists that count what they leave out.
 */
import * as assert from 'node:assert/strict';
import {
  MAX_LISTED_PROCESSES,
  MAX_LISTED_SOCKETS,
  closeFields,
  listeningFields,
  processFields,
} from '../../../src/vscode/tools/terminal/processLists';
import type { ListeningSocket } from '../../../src/terminal/types';
import { closeConfirmationText } from '../../../src/vscode/tools/terminal/confirmation';

const socket = (port: number): ListeningSocket => ({ protocol: 'tcp', address: '127.0.0.1', port, pid: 7, command: 'server' });

describe('terminal tools: ports and processes in results, bounded', () => {
  it('a send result names at most MAX_LISTED_SOCKETS sockets and counts the rest; none when nothing listens', () => {
    const many = Array.from({ length: MAX_LISTED_SOCKETS + 5 }, (_, i) => socket(1000 + i));
    const fields = listeningFields(many);
    assert.equal((fields.listening as unknown[]).length, MAX_LISTED_SOCKETS);
    assert.equal(fields.moreListening, 5);
    assert.deepEqual(listeningFields([]), {});
    assert.deepEqual(listeningFields(undefined), {});
  });

  it('the list says when ports are not available, and bounds background processes', () => {
    assert.deepEqual(processFields({ available: false, reason: 'no /proc' }), { listening: 'not available: no /proc' });
    const processes = Array.from({ length: MAX_LISTED_PROCESSES + 1 }, (_, i) => ({ pid: i + 2, command: 'sleep 1' }));
    const fields = processFields({ available: true, listening: [socket(80)], processes, complete: false });
    assert.equal((fields.backgroundProcesses as unknown[]).length, MAX_LISTED_PROCESSES);
    assert.equal(fields.moreProcesses, 1);
    assert.equal(fields.processesComplete, false);
  });

  it('a close names what it ended and kept, without the start times it keeps for itself', () => {
    const fields = closeFields({
      closed: true,
      ended: [{ pid: 3, command: 'sleep 9', detached: true }],
      kept: [{ pid: 4, command: 'server', startTime: 123 }],
    });
    assert.deepEqual(fields, { ended: [{ pid: 3, command: 'sleep 9', detached: true }], kept: [{ pid: 4, command: 'server' }] });
    assert.deepEqual(closeFields({ closed: false }), {});
  });

  it("a close's confirmation says when background processes keep running", () => {
    assert.match(closeConfirmationText('pty-1', undefined, undefined), /every process it started\./);
    const keeping = closeConfirmationText('pty-1', undefined, undefined, true);
    assert.match(keeping, /keep running/);
    assert.doesNotMatch(keeping, /every process it started/);
  });
});
