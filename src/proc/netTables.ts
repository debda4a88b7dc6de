/**
 * The kernel's socket tables `/proc/<pid>/net/tcp`, `tcp6`, `udp` and `udp6` (proc(5)): one line per
 * socket of the reading process's network namespace, with its local and remote address in hex, its
 * state and its inode (the number `/proc/<pid>/fd/N` links name as `socket:[inode]`). Plain Node,
 * no `vscode` import.
 *
 * Line format (net/ipv4/tcp_ipv4.c `get_tcp4_sock`, net/ipv6/tcp_ipv6.c, net/ipv4/udp.c):
 * `sl: LOCAL:PORT REMOTE:PORT st tx:rx tr:when retrnsmt uid timeout inode …`, addresses as the
 * 32-bit words of the address in host byte order (each printed with `%08X`), ports in hex.
 */

/** The tables read, with their transport protocol and address family. */
export const NET_TABLES = [
  { file: 'tcp', protocol: 'tcp', family: 4 },
  { file: 'tcp6', protocol: 'tcp', family: 6 },
  { file: 'udp', protocol: 'udp', family: 4 },
  { file: 'udp6', protocol: 'udp', family: 6 },
] as const;

/** One of {@link NET_TABLES}. */
export type NetTable = (typeof NET_TABLES)[number];

/** A socket bound to a local address that takes connections (TCP) or datagrams from anyone (UDP). */
export interface BoundSocket {
  protocol: 'tcp' | 'udp';
  family: 4 | 6;
  /** Local address: IPv4 dotted quad (`0.0.0.0`: every address) or IPv6 text as RFC 5952 writes it (`::`: every address). */
  address: string;
  /** Local port, 1..65535. */
  port: number;
  inode: number;
}

/** TCP state LISTEN (include/net/tcp_states.h `TCP_LISTEN`). */
const TCP_LISTEN = '0A';
/** State of an unconnected UDP socket (`TCP_CLOSE`; a connected one is `TCP_ESTABLISHED`, 01). */
const UDP_UNCONNECTED = '07';

/** Above this many inodes looked for, a table is read line by line instead of searched per inode. */
const SEARCH_PER_INODE_MAX = 16;

/**
 * The listening sockets among `inodes` in the text of `table`: TCP sockets in state LISTEN, UDP
 * sockets bound to a port and not connected (remote address all zero, port 0). Sockets of other
 * inodes or states are left out; so is a line that does not parse.
 *
 * Cost: with few inodes each is found with `indexOf` (the text of 10 000 sockets is about 1.5 MB,
 * searched at memory speed, the matching lines alone parsed); with more, every line is split.
 */
export function listeningIn(text: string, table: NetTable, inodes: ReadonlySet<number>): BoundSocket[] {
  const found: BoundSocket[] = [];
  if (inodes.size === 0) return found;
  const take = (line: string) => {
    const socket = parseListening(line, table);
    if (socket && inodes.has(socket.inode) && !found.some((s) => s.inode === socket.inode)) found.push(socket);
  };
  if (inodes.size > SEARCH_PER_INODE_MAX) {
    for (const line of text.split('\n')) take(line);
    return found;
  }
  for (const inode of inodes) {
    // The inode is a field of its own, between spaces; a uid or timeout of the same digits is
    // told apart by parsing the line.
    const needle = ` ${inode} `;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\n', at);
      take(text.slice(start, end === -1 ? text.length : end));
    }
  }
  return found;
}

/** A table line as a listening {@link BoundSocket}, or undefined when it is not one (or not a socket line). */
export function parseListening(line: string, table: NetTable): BoundSocket | undefined {
  const f = line.trim().split(/\s+/);
  if (f.length < 10 || !f[0]!.endsWith(':')) return undefined;
  const [local, remote, state, inodeText] = [f[1]!, f[2]!, f[3]!, f[9]!];
  if (!/^\d+$/.test(inodeText)) return undefined;
  const inode = Number(inodeText);
  if (inode === 0) return undefined;
  if (table.protocol === 'tcp' ? state !== TCP_LISTEN : state !== UDP_UNCONNECTED || !/^0+:0000$/.test(remote)) return undefined;
  const colon = local.indexOf(':');
  const port = parseInt(local.slice(colon + 1), 16);
  const address = hexAddress(local.slice(0, colon), table.family);
  if (address === undefined || !(port > 0)) return undefined;
  return { protocol: table.protocol, family: table.family, address, port, inode };
}

/**
 * An address as the tables print it (the 32-bit words of the address, each in host byte order) as
 * text: IPv4 dotted, IPv6 by RFC 5952 (lower case, the longest run of two or more zero groups as
 * `::`, an IPv4-mapped address as `::ffff:a.b.c.d`). Undefined for text of the wrong length.
 */
export function hexAddress(hex: string, family: 4 | 6): string | undefined {
  if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== (family === 4 ? 8 : 32)) return undefined;
  const bytes: number[] = [];
  const little = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  for (let w = 0; w < hex.length; w += 8) {
    const word = hex.slice(w, w + 8);
    const wordBytes = [0, 2, 4, 6].map((i) => parseInt(word.slice(i, i + 2), 16));
    // `%08X` of a word holding network-order bytes: on a little-endian machine the first byte is last.
    bytes.push(...(little ? wordBytes.reverse() : wordBytes));
  }
  if (family === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `::ffff:${bytes.slice(12).join('.')}`;
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j;
  }
  const text = (part: number[]) => part.map((g) => g.toString(16)).join(':');
  if (best.at === -1) return text(groups);
  return `${text(groups.slice(0, best.at))}::${text(groups.slice(best.at + best.length))}`;
}
