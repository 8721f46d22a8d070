/** Every error code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  invalid_request_error: 400,
  file_too_large: 400,
  file_type_not_supported: 400,
  file_is_empty: 400,
  missing_authorization_header_error: 401,
  malformed_authorization_header_error: 401,
  invalid_api_key_error: 401,
  workspace_auth_error: 401,
  webhook_source_auth_error: 401,
  insufficient_key_scope: 403,
  conversation_access_restricted: 403,
  forbidden: 403,
  not_found: 404,
  workspace_not_found: 404,
  user_not_found: 404,
  api_key_not_found: 404,
  agent_configuration_not_found: 404,
  conversation_not_found: 404,
  message_not_found: 404,
  file_not_found: 404,
  wakeup_not_found: 404,
  trigger_not_found: 404,
  webhook_source_not_found: 404,
  webhook_source_view_not_found: 404,
  space_not_found: 404,
  data_source_view_not_found: 404,
  data_source_not_found: 404,
  data_source_document_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_error: 429,
  internal_server_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A failure the caller can act on. Services throw these; one filter turns them into
 * `{"error":{"type","message"}}` with the status of the code.
 */
export class DomainError extends Error {
  readonly status: number;

  /** `status` overrides the code's usual one where a rule names both (403 `workspace_auth_error`). */
  constructor(
    readonly code: ErrorCode,
    message: string,
    status?: number,
  ) {
    super(message);
    this.name = new.target.name;
    this.status = status ?? ERROR_STATUS[code];
  }
}

export class InvalidRequestError extends DomainError {
  constructor(message: string) {
    super('invalid_request_error', message);
  }
}

/** The caller is known but its role or relation to the resource does not allow the action. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('workspace_auth_error', message, 403);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** Too many requests for now; the filter turns `retryAfterSeconds` into a Retry-After header. */
export class RateLimitError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limit_error', message);
  }
}
