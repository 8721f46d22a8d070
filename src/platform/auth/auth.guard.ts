import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { ApiKeyAuthenticator } from 'src/platform/auth/api-key-authenticator';
import {
  AUTH_METADATA,
  AuthRequirement,
  AuthenticatedRequest,
  PUBLIC_METADATA,
} from 'src/platform/auth/auth.decorators';
import { SIGNED_URL_METADATA } from 'src/platform/auth/signed-url.decorators';
import { UrlSigner } from 'src/platform/auth/url-signer';
import { retryAfterSeconds, setRateLimitHeaders } from 'src/platform/auth/rate-limit/rate-limit-headers';
import { RateLimiter } from 'src/platform/auth/rate-limit/rate-limiter';
import { DomainError, ForbiddenError } from 'src/platform/errors/domain-error';
import { pathOf } from 'src/platform/http/path-of';

/** The scheme is case-insensitive (RFC 9110; docs/decisions/http.md, "Input"): `bearer sk-…` is the same credential. */
const BEARER = /^Bearer +([^\s]+) *$/i;

/** What a route declares about its callers, read from its decorators once. */
interface RouteAccess {
  isPublic: boolean;
  requirement: AuthRequirement | undefined;
  allowsSignedUrl: boolean;
}

/**
 * The one global guard, deny by default. Order: header missing → malformed →
 * invalid key → other workspace → rate limit of the key → scope → role. The limit counts every
 * authenticated request, so a key cannot probe routes it lacks the scope for without limit. A
 * route with @AllowSignedUrl whose query carries a signature is checked by that signature instead
 * (403 when tampered or expired).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** By controller class, then handler: decorators do not change once the application runs. */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAccess>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly signer: UrlSigner,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { isPublic, requirement, allowsSignedUrl } = this.accessOf(context);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.query?.signature !== undefined && allowsSignedUrl) {
      // The URL is the credential: no key is needed, and a bad one is refused before any work.
      const check = this.signer.verify(request.method, pathOf(request.url), request.query);
      if ('failure' in check) {
        throw new ForbiddenError(
          check.failure === 'expired'
            ? 'This signed URL has expired.'
            : 'This signed URL is invalid: its signature does not match.',
        );
      }
      request.signedUrl = check.grant;
      return true;
    }

    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      throw new DomainError(
        'missing_authorization_header_error',
        'Missing Authorization header: send "Bearer <API key>".',
      );
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw new DomainError(
        'malformed_authorization_header_error',
        'Malformed Authorization header: expected "Bearer <API key>".',
      );
    }
    const workspaceSId = request.params?.wId;
    if (!requirement || typeof workspaceSId !== 'string') {
      // A route that declares nothing is closed to everyone.
      throw new DomainError('workspace_auth_error', 'This route is not available to API keys.');
    }
    const result = await this.authenticator.authenticate(match[1], workspaceSId);
    if ('failure' in result) {
      if (result.failure === 'invalid_key') {
        throw new DomainError('invalid_api_key_error', 'The API key is invalid or has been revoked.');
      }
      throw new DomainError('workspace_auth_error', 'The API key cannot access this workspace.');
    }
    const { caller } = result;
    await this.limit(caller.keyId, context.switchToHttp().getResponse<ServerResponse>());
    const missing = requirement.scopes.filter((scope) => !caller.hasScope(scope));
    if (missing.length > 0) {
      throw new DomainError(
        'insufficient_key_scope',
        `The API key lacks the scope(s): ${missing.join(', ')}.`,
      );
    }
    if (requirement.roles && !requirement.roles.includes(caller.role)) {
      throw new ForbiddenError(
        `This action needs the role ${requirement.roles.join(' or ')}; the caller is ${caller.role}.`,
      );
    }
    request.caller = caller;
    return true;
  }

  private accessOf(context: ExecutionContext): RouteAccess {
    const [handler, controller] = [context.getHandler(), context.getClass()];
    let byHandler = this.routes.get(controller);
    if (!byHandler) this.routes.set(controller, (byHandler = new WeakMap()));
    let access = byHandler.get(handler);
    if (!access) {
      const targets = [handler, controller];
      access = {
        isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets) ?? false,
        requirement: this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_METADATA, targets),
        allowsSignedUrl: this.reflector.getAllAndOverride<boolean>(SIGNED_URL_METADATA, targets) ?? false,
      };
      byHandler.set(handler, access);
    }
    return access;
  }

  private async limit(keyId: string, response: ServerResponse): Promise<void> {
    const decision = await this.rateLimiter.consume(keyId);
    if (!decision) return;
    const now = Date.now();
    setRateLimitHeaders(response, decision, now);
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limit_error',
        `Too many requests for this API key (at most ${decision.limit} per ${decision.windowSeconds} s). ` +
          `Retry in ${retryAfterSeconds(decision, now)} s.`,
      );
    }
  }
}
