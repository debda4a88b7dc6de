// @ts-check
// Following the JSON-lines stream the in-host side writes (test/helpers/host/report.ts).

/**
 * One line of the stream: text to print, and for a finished test its outcome.
 * @typedef {{ text: string, outcome?: 'passed' | 'failed' }} LogRecord
 */

import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * Follows the JSON-lines file `file` as it grows (polled every 100 ms; it may not exist yet),
 * calling `onRecord` for every complete line; a line that is not JSON arrives as `{text: line}`.
 * Returns a function that reads what is left and stops following.
 * @param {string} file
 * @param {(record: LogRecord) => void} onRecord
 * @returns {() => void}
 */
export function follow(file, onRecord) {
  let offset = 0;
  let partial = '';
  const decoder = new StringDecoder('utf8'); // a read may end inside a UTF-8 sequence
  const drain = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return; // not created yet
    }
    try {
      const buf = Buffer.alloc(64 * 1024);
      let n;
      while ((n = fs.readSync(fd, buf, 0, buf.length, offset)) > 0) {
        offset += n;
        partial += decoder.write(buf.subarray(0, n));
      }
    } finally {
      fs.closeSync(fd);
    }
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      /** @type {LogRecord} */
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        record = { text: line }; // never let a torn line stop the run
      }
      onRecord(record);
    }
  };
  const timer = setInterval(drain, 100);
  return () => {
    clearInterval(timer);
    drain();
  };
}
