/**
 * Small, dependency-free URI helpers for the navigation seam (plain Node, no `vscode` import),
 * and the conversions between `file:` URIs and file-system paths.
 *
 * URIs are strings (RFC 3986): `scheme://authority/path?query#fragment`. Different producers
 * percent-encode differently (`vscode.Uri.toString()` encodes `+`, `:` and `@`; Node's
 * `pathToFileURL` does not), so these helpers compare URIs by their *decoded* path and re-encode
 * with one canonical rule ({@link canonicalUri}).
 */

import * as nodePath from 'node:path';
import { quoteInput } from '../common/quoteInput';
import { fileURLToPath } from 'node:url';
import { LspError } from './types';

/** A parsed URI. `path` is decoded (`/home/me/My Notes #1/a.md`); `scheme` is lower case. */
export interface ParsedUri {
  readonly scheme: string;
  /** Authority without the leading `//` (`''` for `file:///…`); kept encoded as given. */
  readonly authority: string;
  /** Decoded path, `/`-separated, as given (no normalisation of `.`/`..`). */
  readonly path: string;
  /** Query without `?`, kept encoded (`''` when absent). */
  readonly query: string;
  /** Fragment without `#`, kept encoded (`''` when absent). */
  readonly fragment: string;
}

const URI_RE = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/**
 * Parse a URI string.
 * @throws LspError `invalid_request` when `uri` is not a string with a scheme (`file:///x`), or
 *   its path has a malformed percent-escape.
 */
export function parseUri(uri: string): ParsedUri {
  if (typeof uri !== 'string' || uri.length === 0) {
    throw new LspError('invalid_request', `expected a URI string like 'file:///path/to/file.md', got ${quoteInput(uri)}`);
  }
  const m = URI_RE.exec(uri);
  if (!m) {
    throw new LspError('invalid_request', `not a URI: ${quoteInput(uri)}; expected 'scheme:…', e.g. 'file:///path/to/file.md'`);
  }
  let path: string;
  try {
    path = decodeURIComponent(m[3] ?? '');
  } catch {
    throw new LspError('invalid_request', `malformed percent-encoding in URI path: ${quoteInput(uri)}`);
  }
  return { scheme: m[1]!.toLowerCase(), authority: m[2] ?? '', path, query: m[4] ?? '', fragment: m[5] ?? '' };
}

// RFC 3986 pchar minus nothing we need: unreserved / sub-delims / ':' / '@' stay; '/' separates.
const SAFE_PATH_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** Percent-encode a decoded path (UTF-8), keeping `/` and RFC 3986 `pchar`s. */
export function encodePath(path: string): string {
  let out = '';
  for (const ch of path) {
    if (SAFE_PATH_CHAR.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Format a parsed URI with the canonical path encoding of {@link encodePath}. */
export function formatUri(u: ParsedUri): string {
  const hasAuthority = u.authority !== '' || u.scheme === 'file' || u.path.startsWith('//');
  return (
    `${u.scheme}:` +
    (hasAuthority ? `//${u.authority}` : '') +
    encodePath(u.path) +
    (u.query ? `?${u.query}` : '') +
    (u.fragment ? `#${u.fragment}` : '')
  );
}

/**
 * The canonical form of a URI: lower-case scheme, path decoded and re-encoded by one rule, no
 * trailing slash (except the root `/`). Two URIs naming the same resource through different
 * encodings have the same canonical form.
 * @throws LspError `invalid_request` for a malformed URI (see {@link parseUri}).
 */
export function canonicalUri(uri: string): string {
  const u = parseUri(uri);
  const path = u.path.length > 1 ? u.path.replace(/\/+$/, '') || '/' : u.path;
  return formatUri({ ...u, path });
}

/** The key two URIs share when they name the same resource: scheme, authority (lower case) and decoded path. */
export function uriKey(uri: string): string {
  const u = parseUri(uri);
  const path = u.path.length > 1 ? u.path.replace(/\/+$/, '') || '/' : u.path;
  return `${u.scheme}://${u.authority.toLowerCase()}${path}`;
}

/** Append decoded path segments (`'a b'`, `'c.md'`) to a URI's path; the result is canonical. */
export function joinUri(base: string, ...segments: string[]): string {
  const u = parseUri(base);
  const path = [u.path.replace(/\/+$/, ''), ...segments].join('/');
  return formatUri({ ...u, path, query: '', fragment: '' });
}

/**
 * The path of `uri` relative to `rootUri`, decoded and `/`-separated (`docs/My Notes #1/a.md`),
 * or `undefined` when `uri` is not strictly inside `rootUri` (different scheme or authority, or
 * outside the root path). Comparison is case-sensitive (Linux file systems are).
 */
export function relativePathOf(rootUri: string, uri: string): string | undefined {
  const r = parseUri(rootUri);
  const u = parseUri(uri);
  if (r.scheme !== u.scheme || r.authority.toLowerCase() !== u.authority.toLowerCase()) return undefined;
  const root = r.path.replace(/\/+$/, '');
  if (!u.path.startsWith(root + '/')) return undefined;
  const rel = u.path.slice(root.length + 1);
  return rel.length > 0 ? rel : undefined;
}

/**
 * The file extension that selects a provider: the part of the last path segment from its last dot,
 * lower-cased (`foo.d.ts` -> `.ts`, `README.MD` -> `.md`). `undefined` when there is none: no dot,
 * a dotfile whose only dot is the first character (`.bashrc`), or a name ending in a dot (`foo.`).
 * @throws LspError `invalid_request` for a malformed URI.
 */
export function extensionOfUri(uri: string): string | undefined {
  const { path } = parseUri(uri);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return name.slice(dot).toLowerCase();
}

/** The absolute file-system path of a `file:` URI. @throws LspError `invalid_request` for another scheme. */
export function fileUriToPath(uri: string): string {
  const u = parseUri(uri);
  if (u.scheme !== 'file') {
    throw new LspError('invalid_request', `the Node file system reads only file: URIs, got ${quoteInput(uri)}`);
  }
  return fileURLToPath(formatUri({ ...u, query: '', fragment: '' }));
}

/** The canonical `file:` URI of an absolute path (see `canonicalUri`). */
export function pathToFileUri(p: string): string {
  const abs = nodePath.resolve(p).split(nodePath.sep).join('/');
  return canonicalUri(formatUri({ scheme: 'file', authority: '', path: abs.startsWith('/') ? abs : '/' + abs, query: '', fragment: '' }));
}
