import WebSocket from 'ws';
import { expectStatus, type Client } from '@werkbank/testing/node';

/** The generic assertions live in the harness; the example plugin's greetings are the cross-plugin suites' guinea pig. */
export * from '@werkbank/testing/node';

export const GREETINGS = '/api/v1/greeting/';

export interface Greeting {
  id: number;
  resource_uri: string;
  name: string;
  message: string;
  owner: string;
  created: string;
  favored: boolean;
  permissions: Array<{ user?: string; group?: string; perms: string[] }>;
  tags?: Array<{ id: number; name: string; resource_uri: string }>;
}

export async function createGreeting(client: Client, fields: Partial<Greeting> & { name: string }): Promise<Greeting> {
  return expectStatus<Greeting>(await client.post(GREETINGS, fields), 201);
}

/** The client's cookies as one Cookie header. */
export function cookieHeader(client: Client): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Opens a websocket and resolves with it once open, or rejects with the HTTP status of a refusal. */
export function connectSocket(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
