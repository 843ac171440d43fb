import { createServer, type Server } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { createI18n } from '@werkbank/kernel';
import type { WerkbankState } from '@werkbank/sdk/node';
import { errorMiddleware } from '../http/error-middleware';
import serverEn from '../i18n/en.json' with { type: 'json' };
import serverDe from '../i18n/de.json' with { type: 'json' };

/** Tests only: a real Koa app with the server's error replies in English, on a free loopback port. */
export async function listenTestApp(
  mount: (router: Router<WerkbankState>) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const i18n = createI18n([{ id: 'server.core', namespace: 'server', de: serverDe, en: serverEn }]);
  const app = new Koa<WerkbankState>();
  app.use(async (ctx, next) => {
    ctx.state.lang = 'en';
    ctx.state.t = i18n.getFixedT('en', 'server');
    await next();
  });
  app.use(errorMiddleware(() => {}));
  const router = new Router<WerkbankState>();
  mount(router);
  app.use(router.routes());
  app.on('error', () => {});
  const server: Server = createServer(app.callback());
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}

/** Every file below `dir` (relative paths), for asserting that nothing was left behind. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** A multipart/form-data body: text fields, then (optionally) the file part `file`. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { filename: string; data: Buffer },
  boundary = 'werkbank-test-boundary',
): { body: Buffer; contentType: string; head: Buffer; tail: Buffer } {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
    );
  }
  const head = Buffer.concat(parts);
  const tail = Buffer.from(`${file ? '\r\n' : ''}--${boundary}--\r\n`);
  return {
    head,
    tail,
    body: Buffer.concat([head, file?.data ?? Buffer.alloc(0), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
