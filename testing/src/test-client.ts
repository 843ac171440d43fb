/** A small HTTP client with a cookie jar that sends the CSRF header like the browser does. */
export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Extra headers sent with every request (e.g. Authorization for API keys). */
  headers: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  private storeCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get csrfToken(): string | undefined {
    return this.cookies.get('csrftoken');
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: { csrf?: boolean | string; raw?: string; headers?: Record<string, string>; redirect?: RequestRedirect } = {},
  ): Promise<TestResponse<T>> {
    if (!this.csrfToken && opts.csrf !== false && method !== 'GET') await this.request('GET', '/api/v2/backend/config');
    const headers: Record<string, string> = { ...this.headers, ...(opts.headers ?? {}) };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = typeof opts.csrf === 'string' ? opts.csrf : opts.csrf === false ? undefined : this.csrfToken;
    if (csrf) headers['x-csrftoken'] = csrf;
    let payload: string | undefined = opts.raw;
    if (body !== undefined && payload === undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    } else if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: opts.redirect ?? 'manual' });
    return this.reply<T>(res);
  }

  /** The session's cookies and the CSRF header (after fetching a token when there is none yet), with `extra`. */
  private async sessionHeaders(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    if (!this.csrfToken) await this.request('GET', '/api/v2/backend/config');
    const headers: Record<string, string> = { ...this.headers, ...extra };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrfToken) headers['x-csrftoken'] = this.csrfToken;
    return headers;
  }

  private async reply<T>(res: Response): Promise<TestResponse<T>> {
    this.storeCookies(res);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** POST of one file as `multipart/form-data`, as a browser's upload sends it (part `file` unless named). */
  async upload<T = any>(
    path: string,
    file: { bytes: Uint8Array; filename: string; type?: string; field?: string },
    opts: { headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    const form = new FormData();
    form.append(
      file.field ?? 'file',
      new Blob([new Uint8Array(file.bytes)], file.type ? { type: file.type } : {}),
      file.filename,
    );
    const res = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: await this.sessionHeaders(opts.headers),
      body: form,
      redirect: 'manual',
    });
    return this.reply<T>(res);
  }

  /** GET of an address as bytes (images, files), with the client's cookies. */
  async bytes(path: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, { headers, redirect: 'manual' });
    this.storeCookies(res);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }

  get<T = any>(path: string, opts?: Parameters<TestClient['request']>[3]) {
    return this.request<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: Parameters<TestClient['request']>[3]) {
    return this.request<T>('POST', path, body ?? {}, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: Parameters<TestClient['request']>[3]) {
    return this.request<T>('PATCH', path, body ?? {}, opts);
  }
  delete<T = any>(path: string, opts?: Parameters<TestClient['request']>[3]) {
    return this.request<T>('DELETE', path, undefined, opts);
  }

  async login(username: string, password: string): Promise<TestResponse> {
    const res = await this.post('/accounts/login/', { username, password });
    if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}
