// Where a listening server answers, told truthfully: the address it is bound to (0.0.0.0 or ::
// means every interface of the machine), and a URL a browser on this machine can open — a
// wildcard address is no place to connect to, so that one names localhost.
import type { AddressInfo } from 'node:net';

export interface ListenAddress {
  /** The bound socket as a URL: "http://0.0.0.0:3000", "http://[::]:3000", "http://127.0.0.1:3000". */
  bound: string;
  /** A URL that reaches it from this machine: the bound one, or http://localhost:PORT for a wildcard. */
  url: string;
  /** Bound to 0.0.0.0 or :: (every interface). */
  allInterfaces: boolean;
  port: number;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0']);

const hostPart = (address: string): string => (address.includes(':') ? `[${address}]` : address);

export function listenAddress(info: AddressInfo): ListenAddress {
  const bound = `http://${hostPart(info.address)}:${info.port}`;
  const allInterfaces = WILDCARDS.has(info.address);
  return { bound, url: allInterfaces ? `http://localhost:${info.port}` : bound, allInterfaces, port: info.port };
}
