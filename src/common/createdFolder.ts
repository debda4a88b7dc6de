/**
 * Which created entries a file-event handler asks whether they are folders. A file watcher can
 * report a folder without the files in it (one made and filled faster than its watch was set up,
 * or moved in), so a handler that cares looks inside a created folder. Asking the file system on
 * every event is too dear for a burst (10 000 `stat` calls queued behind the files of one write),
 * so {@link mayBeFolder} asks only about a name without a dot; a folder named like `v1.2` waits for
 * its files' own events. A handler that must not miss a folder named like `me.github.io` or
 * `notes.wiki` (a clone) asks about every name without a {@link COMMON_FILE_EXTENSIONS} ending
 * ({@link mayBeFolderLoosely}).
 */

/** True when the last name of `path` (`/`-separated) has no dot: the entry may be a folder. */
export function mayBeFolder(path: string): boolean {
  return !path.slice(path.lastIndexOf('/') + 1).includes('.');
}

/**
 * Endings (lower case, without the dot) that the files of a burst of writes have: text, data,
 * images, media, archives, source code and build output. `.d` is not one: `conf.d` is a folder.
 */
export const COMMON_FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'txt md markdown json jsonc yaml yml toml xml html htm css scss sass less csv tsv log lock ' +
    'png jpg jpeg gif svg webp ico bmp tif tiff pdf mp3 mp4 wav ogg webm mov mkv flac ttf otf woff woff2 ' +
    'zip gz tgz bz2 xz zst tar 7z jar war ' +
    'js mjs cjs jsx ts mts cts tsx map vue svelte py pyc pyi rb go rs java kt kts class c h cc cpp hpp cs ' +
    'swift php pl lua r scala sh bash zsh ps1 bat sql ipynb tex bib rst adoc ' +
    'o obj a so dll dylib exe lib wasm bin dat out tmp bak swp orig patch diff cache'
  ).split(' '),
);

/**
 * True when `path`'s last name has no dot, or ends in something other than a
 * {@link COMMON_FILE_EXTENSIONS} ending (`me.github.io`, `notes.wiki`, `vault.v2`): the entry may
 * be a folder, worth asking the file system about.
 */
export function mayBeFolderLoosely(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 || !COMMON_FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
