import type { OpenAPIObject } from '@nestjs/swagger';
import { setApiDocument } from 'test/support/api-document';
import { runCli } from 'test/support/service-process';

/** What `cli bootstrap` prints: the workspace and its admin's key. */
export interface Bootstrapped {
  workspace: { sId: string; name: string };
  user: { sId: string; email: string };
  apiKey: { id: string; secret: string; scopes: string[] };
}

/** A workspace made by the real CLI, on the database and data directory of `env`. */
export async function bootstrapWorkspace(env: Record<string, string>, name: string): Promise<Bootstrapped> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
  const { code, stdout, stderr } = await runCli(
    ['bootstrap', '--workspace', name, '--email', email, '--name', `${name} Admin`],
    env,
  );
  if (code !== 0) throw new Error(`bootstrap failed (${code}): ${stderr}`);
  return JSON.parse(stdout) as Bootstrapped;
}

/** Loads the running service's OpenAPI document, so `toMatchApiSchema` checks against what it serves. */
export async function useServedApiDocument(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  setApiDocument((await res.json()) as OpenAPIObject);
}
