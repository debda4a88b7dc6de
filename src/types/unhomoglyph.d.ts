/** The unhomoglyph package's table: each character of Unicode confusables.txt (UTS #39) → its skeleton. */
declare module 'unhomoglyph/data.json' {
  const skeletons: Record<string, string>;
  export = skeletons;
}
