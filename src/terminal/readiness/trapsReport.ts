/**
 * Reading the report the shell writes at every prompt into TRAPS_FILE (shellTraps.ts): its
 * names (shellNames.ts), then its traps, read at a bound of bytes and told when it was longer.
 */
import { readRegularFileHead } from '../../common/regularFileHead';
import { NAMES_MAX_BYTES } from './shellNames';

/** Bytes of the traps read (a trap's text is the user's; a confirmation shows its head). */
const TRAPS_MAX_BYTES = 16 * 1024;
/** Bytes of the whole report read: the shell's names (shellNames.ts), then its traps. */
const REPORT_MAX_BYTES = NAMES_MAX_BYTES + TRAPS_MAX_BYTES;

/**
 * The report in `file` as the shell wrote it at its last prompt: at most REPORT_MAX_BYTES,
 * decoded as UTF-8, with `cut` when the file is longer; `content` undefined when it is missing or
 * not a regular file.
 */
export function readTrapsReport(file: string): { content: string | undefined; cut: boolean } {
  // One byte more than kept: a report cut right after an entry would otherwise read as whole.
  const head = readRegularFileHead(file, REPORT_MAX_BYTES + 1);
  return { content: head?.toString('utf8', 0, REPORT_MAX_BYTES), cut: head !== undefined && head.length > REPORT_MAX_BYTES };
}
