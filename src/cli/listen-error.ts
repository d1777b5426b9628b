// A server that cannot listen is the operator's to fix (another program on the port, a port that
// needs privileges, a HOST that is not this machine's): one line that says which and what to
// change, not Node's stack trace.

/** The line for an error of `listen()`, or null when `err` is not one. */
export function describeListenError(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e?.syscall !== 'listen' || typeof e.code !== 'string') return null;
  const where = e.port === undefined ? String(e.address ?? '') : `${e.address ?? ''}:${e.port}`;
  const port = e.port ?? '?';
  switch (e.code) {
    case 'EADDRINUSE':
      return (
        `port ${port} is already in use (another program listens on ${where}; ` + 'stop it or set PORT to another port)'
      );
    case 'EACCES':
      return (
        `port ${port} cannot be opened (permission denied on ${where}: ` + 'ports below 1024 need privileges; set PORT)'
      );
    case 'EADDRNOTAVAIL':
      return `HOST ${e.address} is not an address of this machine (cannot listen on ${where}; set HOST)`;
    default:
      return `cannot listen on ${where} (${e.code}: ${e.message})`;
  }
}
