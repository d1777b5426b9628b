// Starts a real instance (services + Fastify on a loopback port) against a test database, with
// its log lines captured in a file so tests can scan them.
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.js';
import { buildApp } from '../../src/api/app.js';
import { createLogger } from '../../src/http/logger.js';
import type { TestDatabase } from './databases.js';

export const ADMIN = { username: 'root.admin', password: 'correct horse battery staple' } as const;

export interface Instance {
  url: string;
  app: FastifyInstance;
  services: Services;
  config: Config;
  logFile: string;
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

let instanceCounter = 0;

export async function startInstance(
  /** `logDir`: where the instance's log file goes (default: the data directory). */
  db: TestDatabase & { logDir?: string },
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
  const logFile = join(db.logDir ?? db.dataDir, `instance-${++instanceCounter}.log`);
  const stream = createWriteStream(logFile, { flags: 'a' });
  const services = await createServices(config, createLogger(config.settings.logLevel, stream), overrides);
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
    logFile,
    logs: () => readFileSync(logFile, 'utf8'),
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
      stream.end();
      await once(stream, 'close');
    },
  };
}
