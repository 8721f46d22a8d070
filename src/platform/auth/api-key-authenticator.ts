import type { Caller } from 'src/platform/auth/caller';

/** Port: resolves a bearer secret to a caller of the workspace `workspaceSId`. */
export abstract class ApiKeyAuthenticator {
  /**
   * `invalid_key`: unknown, revoked or malformed secret. `wrong_workspace`: the key belongs to
   * another workspace, the workspace does not exist, or its owner is no longer a member.
   */
  abstract authenticate(
    secret: string,
    workspaceSId: string,
  ): Promise<{ caller: Caller } | { failure: 'invalid_key' | 'wrong_workspace' }>;
}
