// The few lines `serve` prints for the person who started it: where the console, the API and its
// reference answer, and where the first administrator's password is. On stderr, once: stdout
// stays the JSON log (one object a line, what log collectors parse), and stderr is where the
// command speaks to people (its errors go there too), so a collector reading stdout never sees
// the banner and one that keeps stderr keeps a few plain lines. The log's own "listening" line
// carries the same URLs as fields.
import type { ListenAddress } from '../http/listen-address.js';

export interface BannerFacts {
  version: string;
  listen: ListenAddress;
  /** The first administrator's password file, when it exists. */
  adminPasswordFile: string | null;
}

export function serveBanner({ version, listen, adminPasswordFile }: BannerFacts): string {
  const where = listen.allInterfaces
    ? `listening on all interfaces, port ${listen.port} (${listen.bound})`
    : `listening on ${listen.bound} only`;
  const lines = [
    `Platform Core ${version} is running, ${where}`,
    `  Admin console:  ${listen.url}/admin/`,
    `  API reference:  ${listen.url}/docs`,
  ];
  if (adminPasswordFile !== null) lines.push(`  First administrator's password: in ${adminPasswordFile}`);
  return `${lines.join('\n')}\n`;
}
