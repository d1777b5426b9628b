// Starts a real instance (services + Fastify on a loopback port) against a test database, with
// its log lines captured in memory so tests can scan them.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.js';
import { buildApp } from '../../src/api/app.js';
import { createLogger } from '../../src/http/logger.js';
import type { TestDatabase } from './databases.js';

export const ADMIN = { username: 'root.admin', password: 'correct horse battery staple' } as const;

/**
 * A password for a test account that the password rules accept (auth/password-policy.ts): long
 * enough, not common, and not containing the username (its letters rotated by 13, so each user's
 * differs and none contains its own name).
 */
export function passwordFor(username: string): string {
  const rotated = username.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
  return `${rotated}-password-1`;
}

export interface Instance {
  url: string;
  app: FastifyInstance;
  services: Services;
  config: Config;
  logs(): string;
  stop(): Promise<void>;
  request(
    path: string,
    init?: RequestInit & { json?: unknown },
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  login(
    username: string,
    password: string,
    extra?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  jwtFor(username: string, password: string): Promise<string>;
}

export async function startInstance(
  db: TestDatabase,
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): Promise<Instance> {
  const config = loadConfig(
    {
      DATA_DIR: db.dataDir,
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
      PLATFORM_ADMIN_USERNAME: ADMIN.username,
      PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      Settings__LogLevel: 'info',
      ...env,
    },
    db.dataDir,
  );
  // Kept in memory, appended as each line is logged: logs() holds every line logged before it is called
  // (a file stream would still hold the last ones in its queue), and no line needs the data directory
  // to exist or its disk to have room.
  const logLines: string[] = [];
  const destination = { write: (line: string) => void logLines.push(line) };
  const services = await createServices(config, createLogger(config.settings.logLevel, destination), overrides);
  const app = await buildApp(services);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';

  const request: Instance['request'] = async (path, init = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    const res = await fetch(url + path, {
      ...rest,
      headers,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
      redirect: 'manual',
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  const login: Instance['login'] = (username, password, extra = {}) =>
    request('/api/core/account/login', { method: 'POST', json: { username, password, ...extra } });

  return {
    url,
    app,
    services,
    config,
    logs: () => logLines.join(''),
    request,
    login,
    async jwtFor(username, password) {
      const r = await login(username, password);
      if (r.status !== 200) throw new Error(`login of ${username} failed: ${r.status} ${r.text}`);
      return r.body.data.token as string;
    },
    async stop() {
      await app.close();
      await services.close();
    },
  };
}
