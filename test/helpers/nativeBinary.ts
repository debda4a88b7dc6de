// Which platform a native binary is built for, read from its header: ELF (Linux), Mach-O (macOS)
// or PE (Windows). The VSIX test checks each packaged binary with it.

/**
 * The platform and CPU a native executable or shared object runs on, named as VS Code's VSIX
 * targets (`linux-x64`, `linux-arm64`, `darwin-x64`, `darwin-arm64`, `win32-x64`, `win32-arm64`),
 * or undefined when `head` starts no such binary. Another CPU is named by its number
 * (`linux-machine-40`).
 *
 * The fields read: ELF (System V ABI): magic `7f 45 4c 46`, `EI_CLASS` at byte 4 (2 = 64-bit),
 * `EI_DATA` at byte 5 (1 = little-endian), `e_machine` (2 bytes) at byte 18: 62 = EM_X86_64,
 * 183 = EM_AARCH64. Mach-O (`<mach-o/loader.h>`): a 64-bit little-endian header starts with
 * MH_MAGIC_64 (`cf fa ed fe`), then `cputype` (4 bytes, little-endian): 0x01000007 =
 * CPU_TYPE_X86_64, 0x0100000c = CPU_TYPE_ARM64; a universal ("fat") binary (`ca fe ba be`) is
 * `darwin-universal`. PE (Microsoft's PE format): `MZ`, the PE header's offset (4 bytes) at 0x3c,
 * `PE\0\0` there, then `Machine` (2 bytes): 0x8664 = AMD64, 0xaa64 = ARM64.
 * @param head the file's first bytes: 512 hold every header read here.
 */
export function binaryTarget(head: Buffer): string | undefined {
  if (head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46) {
    const machine = head.readUInt16LE(18);
    const cpu = machine === 62 ? 'x64' : machine === 183 ? 'arm64' : `machine-${machine}`;
    if (head[5] !== 1) return `linux-big-endian-${cpu}`;
    return head[4] === 2 ? `linux-${cpu}` : `linux-32bit-${cpu}`;
  }
  if (head.length >= 8 && head.readUInt32BE(0) === 0xcffaedfe) {
    const cputype = head.readUInt32LE(4);
    return `darwin-${cputype === 0x01000007 ? 'x64' : cputype === 0x0100000c ? 'arm64' : `cputype-${cputype}`}`;
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0xcafebabe) return 'darwin-universal';
  if (head.length >= 0x40 && head[0] === 0x4d && head[1] === 0x5a) {
    const pe = head.readUInt32LE(0x3c);
    if (pe + 6 > head.length || head.readUInt32BE(pe) !== 0x50450000) return 'win32-unknown';
    const machine = head.readUInt16LE(pe + 4);
    return `win32-${machine === 0x8664 ? 'x64' : machine === 0xaa64 ? 'arm64' : `machine-${machine}`}`;
  }
  return undefined;
}
