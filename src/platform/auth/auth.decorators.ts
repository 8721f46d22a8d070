import { ExecutionContext, SetMetadata, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiParam } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import type { Caller, Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';
import type { SignedUrlGrant } from 'src/platform/auth/url-signer';
import { ApiErrors } from 'src/platform/http/api-errors';

export const AUTH_METADATA = 'wa:auth';
export const WORKSPACE_PARAM_DESCRIPTION = 'sId of the workspace (the key must belong to it).';
export const PUBLIC_METADATA = 'wa:public';

export interface AuthRequirement {
  /** Every listed scope must be on the key (403 insufficient_key_scope otherwise). */
  scopes: Scope[];
  /** When given, the member's current role must be one of them. */
  roles?: Role[];
}

/**
 * The route needs an API key of the path's workspace with these scopes (and roles). Also
 * documents the bearer scheme, the 401/403/429 answers and the scopes (`x-required-scopes`).
 */
export const Auth = (requirement: AuthRequirement) =>
  applyDecorators(
    SetMetadata(AUTH_METADATA, requirement),
    ApiBearerAuth('bearer'),
    // Every authenticated route is a workspace's: the key must belong to the workspace of the path.
    ApiParam({ name: 'wId', description: WORKSPACE_PARAM_DESCRIPTION, example: 'Wk7Qm2xL9p' }),
    ApiExtension('x-required-scopes', requirement.scopes),
    ApiExtension('x-required-roles', requirement.roles ?? []),
    ApiErrors(401, 403, 429),
  );

/** The route is open to anyone; every other route is denied unless it declares @Auth. */
export const Public = () => SetMetadata(PUBLIC_METADATA, true);

export interface AuthenticatedRequest extends IncomingMessage {
  url: string;
  method: string;
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  caller?: Caller;
  /** Set instead of `caller` when a signed URL let the request in (@AllowSignedUrl). */
  signedUrl?: SignedUrlGrant;
}

export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('@CurrentCaller() used on a route without @Auth()');
  return caller;
});
