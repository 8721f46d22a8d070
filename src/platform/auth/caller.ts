import type { Scope } from 'src/platform/auth/scopes';

export const ROLES = ['admin', 'builder', 'user'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who is calling: resolved from the API key on every request, with the member's role and the
 * workspace as they are now (or as the key's short cache holds them).
 */
export class Caller {
  constructor(
    readonly workspaceId: number,
    readonly workspaceSId: string,
    readonly workspaceName: string,
    readonly userId: number,
    readonly userSId: string,
    readonly role: Role,
    readonly scopes: readonly Scope[],
    readonly keyId: string,
  ) {}

  get isAdmin(): boolean {
    return this.role === 'admin';
  }

  /** Builders and admins may create agents. */
  get isBuilder(): boolean {
    return this.role === 'admin' || this.role === 'builder';
  }

  hasScope(scope: Scope): boolean {
    return this.scopes.includes(scope);
  }
}
