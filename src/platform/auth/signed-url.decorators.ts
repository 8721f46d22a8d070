import { ExecutionContext, SetMetadata, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiExtension, ApiQuery } from '@nestjs/swagger';
import type { AuthenticatedRequest } from 'src/platform/auth/auth.decorators';
import type { Caller } from 'src/platform/auth/caller';
import type { SignedUrlGrant } from 'src/platform/auth/url-signer';

export const SIGNED_URL_METADATA = 'wa:signed-url';

/**
 * Besides the API key its @Auth asks for, the route accepts a URL this service signed: when the
 * query carries a `signature`, the guard checks it (and its expiry) instead of the key.
 */
export const AllowSignedUrl = () =>
  applyDecorators(
    SetMetadata(SIGNED_URL_METADATA, true),
    ApiExtension('x-signed-url', true),
    ApiQuery({
      name: 'expires',
      required: false,
      type: String,
      description: 'Expiry of a signed URL (seconds since the epoch); with `signature`, replaces the key.',
    }),
    ApiQuery({
      name: 'signature',
      required: false,
      type: String,
      description: 'Signature of a signed URL, as the service returned it.',
    }),
  );

/** Who is calling a route with @AllowSignedUrl: the key's caller, or what the signed URL grants. */
export const CurrentAccess = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller | SignedUrlGrant => {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const access = request.caller ?? request.signedUrl;
    if (!access) throw new Error('@CurrentAccess() used on a route without @Auth() or @AllowSignedUrl()');
    return access;
  },
);
