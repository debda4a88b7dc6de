/**
 * The declarations of the navigation tools (../declaration.ts): names, whether each asks first,
 * descriptions, input schemas and the rules across their properties. Plain Node.
 */
import { z } from 'zod';
import { DEFAULT_CALL_DEPTH, MAX_CALL_DEPTH } from '../../lsp/features/callHierarchy';
import { SEVERITIES, SYMBOL_KINDS } from '../../lsp/features/types';
import { MAX_LIMIT } from '../../lsp/shapeLocations';
import { SYMBOL_MAX_UNITS } from '../../lsp/symbolAnchor';
import { LSP_OPERATIONS, type LspOperation } from '../../lsp/types';
import { declareTool, hinted, RuleProblem, text } from '../declaration';

/** Longest file path, in UTF-16 code units: Linux's PATH_MAX is 4096 bytes. */
const MAX_PATH_UNITS = 4096;
/** Longest workspace-symbol query, in UTF-16 code units. */
export const QUERY_MAX_UNITS = 200;

/** A rule: `filePath`, when given, is more than white space. */
const filePathNotBlank = (i: { filePath?: string | undefined }): RuleProblem | undefined =>
  i.filePath !== undefined && i.filePath.trim() === ''
    ? { property: 'filePath', valid: 'a workspace-relative path like "src/a.ts" or an absolute path, not only white space' }
    : undefined;

/**
 * A 1-based line number. A line below 1 is refused by the validator, which cannot see the file; a
 * line past the file's end is refused by the tool, naming the file's range (1..its line count).
 */
const lineNumber = () =>
  hinted(
    z.int().min(1),
    "lines are 1-based: line 1 is the file's first line (a line past the file's end is refused naming the file's range)",
  );

/** `dsh_lsp`. */
export const LSP = declareTool({
  name: 'dsh_lsp',
  displayName: 'Code Navigation',
  tags: ['dsh', 'navigation'],
  asksFirst: { when: 'the file is outside the workspace' },
  userDescription: 'Go to definition, find references, implementations or hover at a position (code and markdown wiki links).',
  modelDescription:
    'Code navigation with the editor\'s own language features (and markdown [[wiki links]] in notes): goToDefinition, findReferences, goToImplementation or hover at a position in a file. Positions are 1-BASED: line 1 is the first line, column 1 the first character (columns count characters, not bytes). Pass `symbol` (the identifier on that line) to re-anchor a miscounted column; a column on a declaration keyword such as `export` is moved to the declared name and the result says so. Returns JSON {operation, file, provider, position: {line, column, lineText, lineTextStart?, token, note?} (the position actually used; a line over 200 UTF-16 units is cut to a window around the column, … marking each cut end, and lineTextStart is the column where the shown text begins), total, shown, offset, nextOffset?, summary (e.g. "showing 1–50 of 150 in 3 files"), files: [{path, count}] (at most 100 files), moreFiles?, filesNote?, locations: [{path, line, column, endLine, endColumn (exclusive), preview, isDeclaration?, external?, nodeModules?, ambiguous?, candidates? (at most 5), moreCandidates?, fuzzy?, unresolved?, linkTarget? (at most 200 UTF-16 units, then … and linkTargetCut: true), anchorMissing?, embed?, previewWithheld?}], collapsed?: {nodeModules?, external?: {count, files, moreFiles?}}, previewsWithheld?, outsideWorkspace?: {leftOut, why}}; hover returns {hover: plain text or null, hoverCut?, hoverUnits?} (hover text longer than 8000 UTF-16 code units is cut, ending in …, with hoverCut: true and its whole length in hoverUnits). Paths are workspace-relative (absolute when outside the workspace, flagged external). findReferences always includes the declaration (isDeclaration: true). References under node_modules or outside the workspace are collapsed into counts; workspace hits come first. An empty locations list means "no results"; "language support ... not available or not ready" is an error, not an empty answer. Use it to find where something is defined, who uses it before changing it, or a type at a position; prefer it over text search for identifiers. Do not use it to search text or list files, or for files without language support (it errors with the served extensions). Reads: regular files up to 8 MiB (FIFOs, devices, sockets, /proc and /sys files are refused). A file whose real path is outside the workspace (absolute path, ../, or a symbolic link) is read only after the user confirms, never in Restricted Mode; result locations whose real path is outside the workspace (VS Code\'s bundled TypeScript library files excepted) are left out unless the call was confirmed that way (then their previews are shown too), counted with the reason in outsideWorkspace: {leftOut, why}. Limits: 50 locations per page by default (`limit` up to 500); page with `offset` = nextOffset; results are capped at 256 KiB (a page that would not fit is cut, capNote says so and nextOffset leads on).',
  input: z.strictObject({
    operation: z.enum(LSP_OPERATIONS as [LspOperation, ...LspOperation[]]).describe('What to ask at the position.'),
    filePath: text('line', MAX_PATH_UNITS, 1).describe(
      'Workspace-relative path (e.g. "src/a.ts") or absolute path of the file. A file outside the workspace needs the user\'s confirmation (refused in Restricted Mode).',
    ),
    line: lineNumber().describe('1-based line number.'),
    column: z.int().min(1).describe('1-based column, counted in characters.'),
    symbol: text('line', SYMBOL_MAX_UNITS, 1)
      .optional()
      .describe(
        'Optional: the identifier on that line; the column is re-anchored to its nearest occurrence (use it, columns are easy to miscount).',
      ),
    offset: z
      .int()
      .min(0)
      .optional()
      .describe("Paging: index of the first location to show (the previous answer's nextOffset). Default 0."),
    limit: z.int().min(1).max(MAX_LIMIT).optional().describe('Most locations per page. Default 50.'),
  }),
  rules: [filePathNotBlank],
});

/** `dsh_symbols`. */
export const SYMBOLS = declareTool({
  name: 'dsh_symbols',
  displayName: 'Code Symbols',
  tags: ['dsh', 'navigation'],
  asksFirst: 'never',
  userDescription: "Find symbols by name in the workspace, or a file's outline (code and markdown notes).",
  modelDescription:
    'Finds symbols by name across the workspace, or lists one file\'s outline, with the editor\'s own language features (and markdown notes: note titles, file names and front-matter aliases as symbols, headings and ^block anchors as a note\'s outline). Pass `query` (part of a name; matched like VS Code\'s "Go to Symbol in Workspace": case-insensitive, characters in order, best matches first) OR `filePath` (that file\'s outline as a tree). Returns JSON {mode: "workspace"|"outline", summary (e.g. "showing 1–50 of 312 in 40 files"), total, shown, offset, nextOffset?, sources, notes?; workspace: symbols: [{name, kind, detail?, containerName?, cut?, path, line, column, endLine, endColumn}], files: [{path, count}] (at most 100 files; moreFiles counts the rest, filesNote says how to see them), moreFiles?, filesNote?, collapsed?; outline: file, provider, outline: [{name, kind, detail?, cut?, path, line, column, endLine, endColumn, children?}]}. line/column (1-based, columns in characters) is where the name starts: pass it straight to dsh_lsp (definition, references, hover); endLine/endColumn (exclusive) is where the declaration ends. Use it when you know a name but not where it is, or to see what a file contains before reading it. Do not use it for text search or to list files. Limits: query 1–200 characters; `kinds` filters by symbol kind; 50 symbols per page by default (`limit` up to 500, page with `offset` = nextOffset; an outline counts every nested symbol); symbols under node_modules are folded into counts; symbols in files whose real path is outside the workspace are left out, counted with the reason in outsideWorkspace: {leftOut, why}; a name or containerName longer than 200 or a detail longer than 400 UTF-16 code units is cut, ending in … (cut: true); results are capped at 256 KiB. Language support that is still loading is an error ("not ready"), not an empty answer.',
  input: z.strictObject({
    query: text('line', QUERY_MAX_UNITS, 1)
      .optional()
      .describe(
        'Part of a symbol name to search the workspace for (case-insensitive, characters in order). Give either query or filePath.',
      ),
    filePath: text('line', MAX_PATH_UNITS, 1)
      .optional()
      .describe('Workspace-relative (e.g. "src/a.ts") or absolute path: answer that file\'s outline instead of searching.'),
    kinds: z
      .array(z.enum(SYMBOL_KINDS))
      .min(1)
      .max(SYMBOL_KINDS.length)
      .optional()
      .describe('Only symbols of these kinds (e.g. ["Class", "Function"]).'),
    offset: z.int().min(0).optional().describe("Paging: index of the first symbol to show (the previous answer's nextOffset). Default 0."),
    limit: z.int().min(1).max(MAX_LIMIT).optional().describe('Most symbols per page. Default 50.'),
  }),
  rules: [
    filePathNotBlank,
    (i) =>
      i.query !== undefined && i.query.trim() === ''
        ? {
            property: 'query',
            valid: `1..${QUERY_MAX_UNITS} characters of a symbol name, not only white space (or filePath alone for a file's outline)`,
          }
        : undefined,
    (i) =>
      i.query === undefined && i.filePath === undefined
        ? { property: 'query', valid: "query (a symbol name, for workspace symbols) or filePath (for that file's outline)" }
        : undefined,
    (i) =>
      i.query !== undefined && i.filePath !== undefined
        ? { property: 'filePath', valid: "either query (workspace symbols) or filePath (a file's outline), not both" }
        : undefined,
  ],
});

/** `dsh_diagnostics`. */
export const DIAGNOSTICS = declareTool({
  name: 'dsh_diagnostics',
  displayName: 'Problems',
  tags: ['dsh', 'navigation'],
  asksFirst: 'never',
  userDescription: 'Problems (errors and warnings) for a file or the workspace, including broken wiki links.',
  modelDescription:
    'Lists problems (errors, warnings, …) the editor\'s language support reports, for one file or the whole workspace, including broken, ambiguous and missing-heading wiki links in markdown notes. Returns JSON {scope: "file"|"workspace", freshness: "settled"|"pending"|"unknown", freshnessNote?, summary (e.g. "showing 1–3 of 3 in 2 files (1 error, 2 warnings)", or "no problems"), total, shown, offset, nextOffset?, counts: {error, warning, information, hint}, files: [{path, count, error?, warning?, …}] (at most 100 files; moreFiles counts the rest, filesNote says how to see them), moreFiles?, filesNote?, diagnostics: [{path, line, column, endLine, endColumn, severity, message, source?, code?, cut?}], collapsed?}, errors first; positions 1-based, columns in characters. freshness tells whether the answer is final: "settled" means the file\'s current text was analysed; "pending" means analysis is still running (the list may be incomplete: ask again); "unknown" means the language support reported nothing for the file (it may not check this language). For a file it has not analysed yet, the tool opens it and waits (up to about 20 s) for analysis. Use it after editing to see what is broken, or before a change to know the baseline. Do not use it to run builds or tests. Limits: `severity` keeps that severity and the more severe ones; 50 problems per page by default (`limit` up to 500, page with `offset`); the whole-workspace answer holds what the language support has analysed (TypeScript checks open files only); problems under node_modules are folded into counts; problems of files whose real path is outside the workspace are left out, counted with the reason in outsideWorkspace: {leftOut, why}; a message longer than 4000 or a source or code longer than 200 UTF-16 code units is cut, ending in … (cut: true); results are capped at 256 KiB.',
  input: z.strictObject({
    filePath: text('line', MAX_PATH_UNITS, 1)
      .optional()
      .describe('Workspace-relative (e.g. "src/a.ts") or absolute path. Omit for the whole workspace.'),
    severity: z
      .enum(SEVERITIES)
      .optional()
      .describe('The least severe problems to include: "error" shows errors only, "warning" errors and warnings. Default: all.'),
    offset: z.int().min(0).optional().describe("Paging: index of the first problem to show (the previous answer's nextOffset). Default 0."),
    limit: z.int().min(1).max(MAX_LIMIT).optional().describe('Most problems per page. Default 50.'),
  }),
  rules: [filePathNotBlank],
});

/** `dsh_call_hierarchy`. */
export const CALL_HIERARCHY = declareTool({
  name: 'dsh_call_hierarchy',
  displayName: 'Call Hierarchy',
  tags: ['dsh', 'navigation'],
  asksFirst: 'never',
  userDescription: 'Callers or callees of a function, with call sites.',
  modelDescription:
    "Who calls a function (incoming) or what it calls (outgoing), with the call sites, through the editor's own language features. Give the 1-BASED position of the function's name (line 1 is the first line, columns count characters); pass `symbol` (the name on that line) to re-anchor a miscounted column, as with dsh_lsp. Returns JSON {file, provider, direction, depth, position: {line, column, lineText, lineTextStart?, token, note?} (lineText cut around the column as in dsh_lsp), root: {name, kind, detail?, cut?, path, line, column, endLine, endColumn, calls: [{name, kind, path, line, column, …, callSites: [{path, line, column, endLine, endColumn, preview}], moreCallSites?, calls?, moreCalls?, cycle?, seenAbove?, depthLimit?, capLimit?}], moreCalls?}, nodes, truncated, summary, otherItems?, moreOtherItems?, otherItemsCut?, note?}. otherItems names the other functions the position is also on (not walked). Calls in files whose real path is outside the workspace are left out (with what is below them), counted with the reason in outsideWorkspace: {leftOut, why}. Call sites are in the caller for incoming calls and in the parent for outgoing calls. A recursion is listed once with cycle: true and not expanded; an item already expanded elsewhere has seenAbove: true; depthLimit: true means not expanded because of the depth bound. Use it to see the impact of changing a function or to follow a flow. Do not use it for markdown notes (they have no calls; use dsh_lsp findReferences). Limits: depth 1–5 (default 1); at most 500 items per answer and 100 calls per item, the calls left out counted in moreCalls (truncated: true when the 500 bound cut; items it left unexpanded have capLimit: true); at most 20 call sites per call, the rest counted in moreCallSites; at most 10 otherItems, the rest counted in moreOtherItems; a name longer than 200 or a detail longer than 400 UTF-16 code units is cut, ending in … (the item has cut: true; otherItemsCut: true in otherItems); results are capped at 256 KiB (then only the first level, cut to fit); note says what was left out; a position on whitespace or on no function is an error saying so.",
  input: z.strictObject({
    filePath: text('line', MAX_PATH_UNITS, 1).describe('Workspace-relative (e.g. "src/a.ts") or absolute path of the file.'),
    line: lineNumber().describe('1-based line number.'),
    column: z.int().min(1).describe('1-based column, counted in characters.'),
    symbol: text('line', SYMBOL_MAX_UNITS, 1)
      .optional()
      .describe("Optional: the function's name on that line; the column is re-anchored to its nearest occurrence."),
    direction: z.enum(['incoming', 'outgoing']).describe('incoming: who calls it; outgoing: what it calls.'),
    depth: z.int().min(1).max(MAX_CALL_DEPTH).optional().describe(`Levels to follow. Default ${DEFAULT_CALL_DEPTH}.`),
  }),
  rules: [filePathNotBlank],
});
