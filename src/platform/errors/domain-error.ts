/**
 * What a failure means, in the words of the contexts. Most codes are also the wire `type` the caller
 * reads; how each is answered over HTTP is decided at the edge (`src/platform/http/error-answers.ts`).
 */
export type DomainErrorCode =
  | 'invalid_request_error'
  | 'file_too_large'
  | 'file_type_not_supported'
  | 'file_is_empty'
  | 'missing_authorization_header_error'
  | 'malformed_authorization_header_error'
  | 'invalid_api_key_error'
  /** The key cannot reach this workspace, or the route is not open to API keys. */
  | 'workspace_auth_error'
  | 'webhook_source_auth_error'
  | 'insufficient_key_scope'
  | 'action_not_allowed'
  | 'conversation_access_restricted'
  | 'not_found'
  | 'workspace_not_found'
  | 'user_not_found'
  | 'api_key_not_found'
  | 'agent_configuration_not_found'
  | 'conversation_not_found'
  | 'message_not_found'
  | 'file_not_found'
  | 'wakeup_not_found'
  | 'trigger_not_found'
  | 'webhook_source_not_found'
  | 'webhook_source_view_not_found'
  | 'space_not_found'
  | 'data_source_view_not_found'
  | 'data_source_not_found'
  | 'data_source_document_not_found'
  | 'conflict'
  /** A sound request the conversation's present state refuses (a run still going, a wake-up held). */
  | 'refused_in_current_state'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limit_error'
  | 'service_unavailable';

/**
 * A failure the caller can act on. Services throw these with a code and a sentence; one filter
 * answers them as `{"error":{"type","message"}}` with the status the edge gives the code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
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
    super('action_not_allowed', message);
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
