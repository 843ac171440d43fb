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
