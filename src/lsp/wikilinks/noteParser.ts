/**
 * Where the wiki-link index parses its notes (plain Node, no `vscode` import): the
 * {@link NoteParser} interface, and {@link inlineNoteParser}, which parses on the calling thread.
 * The extension uses `WorkerNoteParser` (a worker thread) so no parse blocks the extension host
 * thread; both give the same {@link ParsedNote} for the same text and options.
 */
import { AliasOrder, NoteLimits, parseNote, ParsedNote } from './parse';

/** A note's text, or its bytes in UTF-8 (decoded by the parser, on its thread; a leading BOM is dropped). */
export type NoteSource = string | Uint8Array;

const utf8 = new TextDecoder('utf-8');

/** The text of `source`: as it is, or its bytes decoded as UTF-8 without a leading BOM. */
export function noteText(source: NoteSource): string {
  return typeof source === 'string' ? source : utf8.decode(source);
}

/** What a {@link NoteParser} is asked to do with one note's text. */
export interface NoteParseOptions {
  readonly aliasOrder: AliasOrder;
  /** A note over these is parsed partly ({@link ParsedNote.partial}). */
  readonly limits: NoteLimits;
}

/** Parses notes for the index. */
export interface NoteParser {
  /**
   * The parse of `source` (see `parseNote`). Bytes are decoded where the parse runs, so a worker
   * parser keeps the decoding of a big note off the calling thread too. Bytes are handed over: a
   * parser may take their buffer (a worker parser transfers it, leaving them empty), so the caller
   * passes bytes it no longer needs, whose buffer holds nothing else (e.g. a file just read).
   * @throws Error when the parser failed or was disposed (the note is then skipped and reported).
   */
  parse(source: NoteSource, options: NoteParseOptions): Promise<ParsedNote>;
}

/**
 * Parses on the calling thread: for plain-Node callers and tests. A parse of a note at the
 * limits holds the thread for its whole duration (up to seconds), so the extension does not use it.
 */
export const inlineNoteParser: NoteParser = {
  parse: (source, options) => Promise.resolve(parseNote(noteText(source), options)),
};
