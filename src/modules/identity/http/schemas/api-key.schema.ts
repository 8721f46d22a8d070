import type * as views from 'src/modules/identity/application/views/api-key.view';
import type { Scope } from 'src/platform/auth/scopes';

export class ApiKeyView implements views.ApiKeyView {
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

export class CreatedApiKeyView implements views.CreatedApiKeyView {
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
