import { assertUnreachable } from 'src/platform/errors/assert-unreachable';
import type { DomainErrorCode } from 'src/platform/errors/domain-error';
import type { ErrorType } from 'src/platform/errors/error-envelope';

/** How a domain error is answered over HTTP: the status and the envelope's `error.type`. */
export interface ErrorAnswer {
  status: number;
  type: ErrorType;
}

/**
 * The one place where a domain code gets its HTTP status. Each code is its own wire type but two:
 * a role refusal is 403 `workspace_auth_error`, a refusal by the conversation's state 409
 * `invalid_request_error`, as Dust answers them.
 */
export function errorAnswerOf(code: DomainErrorCode): ErrorAnswer {
  switch (code) {
    case 'invalid_request_error':
    case 'file_too_large':
    case 'file_type_not_supported':
    case 'file_is_empty':
      return { status: 400, type: code };
    case 'missing_authorization_header_error':
    case 'malformed_authorization_header_error':
    case 'invalid_api_key_error':
    case 'workspace_auth_error':
    case 'webhook_source_auth_error':
      return { status: 401, type: code };
    case 'insufficient_key_scope':
    case 'conversation_access_restricted':
      return { status: 403, type: code };
    case 'action_not_allowed':
      return { status: 403, type: 'workspace_auth_error' };
    case 'not_found':
    case 'workspace_not_found':
    case 'user_not_found':
    case 'api_key_not_found':
    case 'agent_configuration_not_found':
    case 'conversation_not_found':
    case 'message_not_found':
    case 'file_not_found':
    case 'wakeup_not_found':
    case 'trigger_not_found':
    case 'webhook_source_not_found':
    case 'webhook_source_view_not_found':
    case 'space_not_found':
    case 'data_source_view_not_found':
    case 'data_source_not_found':
    case 'data_source_document_not_found':
      return { status: 404, type: code };
    case 'conflict':
      return { status: 409, type: code };
    case 'refused_in_current_state':
      return { status: 409, type: 'invalid_request_error' };
    case 'payload_too_large':
      return { status: 413, type: code };
    case 'unsupported_media_type':
      return { status: 415, type: code };
    case 'rate_limit_error':
      return { status: 429, type: code };
    case 'service_unavailable':
      return { status: 503, type: code };
    default:
      return assertUnreachable(code);
  }
}
