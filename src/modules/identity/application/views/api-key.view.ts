import type { Scope } from 'src/platform/auth/scopes';
import type { CreatedApiKey } from 'src/modules/identity/application/api-keys.service';
import type { ApiKey } from 'src/modules/identity/application/ports/api-key.repository';

/** An API key as listed: never its secret. */
export class ApiKeyView {
  /** @example key_3fZ0aBcDeF */
  id!: string;
  name!: string;
  scopes!: Scope[];
  createdAt!: number;
  lastUsedAt!: number | null;
  revokedAt!: number | null;
  /** sId of the member who owns the key */
  userId!: string;
  /** @example sk-3fZ0 */
  displayPrefix!: string;
}

/** A key just created: the only answer that carries its secret. */
export class CreatedApiKeyView {
  id!: string;
  name!: string;
  scopes!: Scope[];
  createdAt!: number;
  /** Shown only in this response. */
  secret!: string;
}

export class CreatedApiKeyResponse {
  apiKey!: CreatedApiKeyView;
}

export class ApiKeyResponse {
  apiKey!: ApiKeyView;
}

export class ApiKeysResponse {
  apiKeys!: ApiKeyView[];
}

export const renderApiKey = (key: ApiKey): ApiKeyView => ({
  id: key.sId,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt.getTime(),
  lastUsedAt: key.lastUsedAt?.getTime() ?? null,
  revokedAt: key.revokedAt?.getTime() ?? null,
  userId: key.userSId,
  displayPrefix: key.displayPrefix,
});

export const renderCreatedApiKey = ({ key, secret }: CreatedApiKey): CreatedApiKeyView => ({
  id: key.sId,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt.getTime(),
  secret,
});
