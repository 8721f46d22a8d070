import type { Scope } from 'src/platform/auth/scopes';

/** An API key as listed: never its secret. */
export interface ApiKeyView {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  userId: string;
  displayPrefix: string;
}

/** A key just created: the only answer that carries its secret. */
export interface CreatedApiKeyView {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  secret: string;
}
