/**
 * A parsed note handed between threads in pieces (plain Node, no `vscode` import): the messages
 * between {@link WorkerNoteParser} and its worker thread (`noteParseWorker.ts`), the splitting of a
 * {@link ParsedNote} into pieces of at most {@link PIECE_ITEMS} links, headings, block anchors and
 * ignored regions, and their assembly back into the same `ParsedNote`.
 *
 * Copying a message into the receiving thread costs time in proportion to its items and cannot be
 * interrupted, so a parse crosses in pieces the receiver asks for one at a time, yielding between.
 */
import type { NoteFile, NoteParseOptions, NoteSource } from './noteParser';
import type { BlockAnchor, Heading, IgnoredRegion, ParsedNote, WikiLink } from './parsedNote';

/** Most items (links + headings + block anchors + ignored regions) in one piece. */
export const PIECE_ITEMS = 500;

/** Parse `text` (a note's text or its UTF-8 bytes); the worker answers with the first {@link PieceReply} (or a {@link FailReply}). */
export interface TextParseRequest {
  readonly type: 'parse';
  readonly id: number;
  readonly text: NoteSource;
  readonly options: NoteParseOptions;
}

/** Read `file` (`readNoteFile`), then parse it as a {@link TextParseRequest}; a failed read is answered with a {@link FailReply} with `read`. */
export interface FileParseRequest {
  readonly type: 'parse';
  readonly id: number;
  readonly file: NoteFile;
  readonly options: NoteParseOptions;
}

/** A parse the worker is asked for. */
export type ParseRequest = TextParseRequest | FileParseRequest;

/** The next piece of parse `id`. */
export interface MoreRequest {
  readonly type: 'more';
  readonly id: number;
}

/** A message to the worker. */
export type WorkerRequest = ParseRequest | MoreRequest;

/** The fields of a {@link ParsedNote} that are not lists of items (sent with the first piece). */
export type NoteHead = Pick<ParsedNote, 'lineCount' | 'title' | 'frontMatter' | 'aliases' | 'partial'>;

/** Items of a parse, each list in the parse's order. */
export interface Piece {
  readonly links: readonly WikiLink[];
  readonly headings: readonly Heading[];
  readonly blocks: readonly BlockAnchor[];
  readonly ignored: readonly IgnoredRegion[];
}

/** One piece of parse `id`; `head` with the first; `done` with the last. */
export interface PieceReply {
  readonly type: 'piece';
  readonly id: number;
  readonly head?: NoteHead;
  readonly piece: Piece;
  readonly done: boolean;
}

/**
 * Parse `id` threw (the message says why), or the worker was asked for a parse it does not hold;
 * with `read`, the note's file could not be read (`code` as `NoteReadError`'s) and nothing was parsed.
 */
export interface FailReply {
  readonly type: 'fail';
  readonly id: number;
  readonly message: string;
  readonly read?: { readonly code: string | undefined };
}

/** Sent once by the worker when it has loaded and takes requests. */
export interface ReadyReply {
  readonly type: 'ready';
}

/** A message from the worker. */
export type WorkerReply = PieceReply | FailReply | ReadyReply;

const LISTS = ['links', 'headings', 'blocks', 'ignored'] as const;

/** Hands out a parse piece by piece: the head and up to {@link PIECE_ITEMS} items first, then the rest in order. */
export class PieceSource {
  private list = 0;
  private at = 0;
  private sentHead = false;

  constructor(private readonly parsed: ParsedNote) {}

  /** The next piece; `done` when nothing is left after it. */
  next(): { head?: NoteHead; piece: Piece; done: boolean } {
    const out: Record<(typeof LISTS)[number], unknown[]> = { links: [], headings: [], blocks: [], ignored: [] };
    let room = PIECE_ITEMS;
    while (room > 0 && this.list < LISTS.length) {
      const items = this.parsed[LISTS[this.list]!] as readonly unknown[];
      const take = Math.min(room, items.length - this.at);
      if (take > 0) out[LISTS[this.list]!] = items.slice(this.at, this.at + take);
      this.at += take;
      room -= take;
      if (this.at >= items.length) {
        this.list++;
        this.at = 0;
      }
    }
    const p = this.parsed;
    const head: NoteHead | undefined = this.sentHead
      ? undefined
      : {
          lineCount: p.lineCount,
          title: p.title,
          frontMatter: p.frontMatter,
          aliases: p.aliases,
          ...(p.partial ? { partial: p.partial } : {}),
        };
    this.sentHead = true;
    return { ...(head ? { head } : {}), piece: out as unknown as Piece, done: this.list >= LISTS.length };
  }
}

/** Assembles the pieces of one parse, in order, into the {@link ParsedNote} they came from. */
export class PieceSink {
  private head: NoteHead | undefined;
  private readonly lists = {
    links: [] as WikiLink[],
    headings: [] as Heading[],
    blocks: [] as BlockAnchor[],
    ignored: [] as IgnoredRegion[],
  };

  /** Add the next piece. */
  add(reply: Pick<PieceReply, 'head' | 'piece'>): void {
    if (reply.head) this.head = reply.head;
    for (const k of LISTS) for (const item of reply.piece[k]) (this.lists[k] as unknown[]).push(item);
  }

  /**
   * The parse, with the same fields (and the same absent and `undefined` ones) as `parseNote` gives.
   * @throws Error when no piece carried the head.
   */
  result(): ParsedNote {
    const h = this.head;
    if (!h) throw new Error('note parser: the parse arrived without its head');
    const { links, headings, blocks, ignored } = this.lists;
    return {
      lineCount: h.lineCount,
      links,
      headings,
      blocks,
      title: h.title,
      frontMatter: h.frontMatter,
      aliases: h.aliases,
      ignored,
      ...(h.partial ? { partial: h.partial } : {}),
    };
  }
}
