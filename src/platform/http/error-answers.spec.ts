import { describe, expect, it } from '@jest/globals';
import type { DomainErrorCode } from 'src/platform/errors/domain-error';
import type { ErrorType } from 'src/platform/errors/error-envelope';
import { errorAnswerOf } from 'src/platform/http/error-answers';

/** The status and `error.type` the API's clients (Dust's among them) expect for each domain code. */
const EXPECTED: Record<DomainErrorCode, [number, ErrorType]> = {
  invalid_request_error: [400, 'invalid_request_error'],
  file_too_large: [400, 'file_too_large'],
  file_type_not_supported: [400, 'file_type_not_supported'],
  file_is_empty: [400, 'file_is_empty'],
  missing_authorization_header_error: [401, 'missing_authorization_header_error'],
  malformed_authorization_header_error: [401, 'malformed_authorization_header_error'],
  invalid_api_key_error: [401, 'invalid_api_key_error'],
  workspace_auth_error: [401, 'workspace_auth_error'],
  webhook_source_auth_error: [401, 'webhook_source_auth_error'],
  insufficient_key_scope: [403, 'insufficient_key_scope'],
  action_not_allowed: [403, 'workspace_auth_error'],
  conversation_access_restricted: [403, 'conversation_access_restricted'],
  not_found: [404, 'not_found'],
  workspace_not_found: [404, 'workspace_not_found'],
  user_not_found: [404, 'user_not_found'],
  api_key_not_found: [404, 'api_key_not_found'],
  agent_configuration_not_found: [404, 'agent_configuration_not_found'],
  conversation_not_found: [404, 'conversation_not_found'],
  message_not_found: [404, 'message_not_found'],
  file_not_found: [404, 'file_not_found'],
  wakeup_not_found: [404, 'wakeup_not_found'],
  trigger_not_found: [404, 'trigger_not_found'],
  webhook_source_not_found: [404, 'webhook_source_not_found'],
  webhook_source_view_not_found: [404, 'webhook_source_view_not_found'],
  space_not_found: [404, 'space_not_found'],
  data_source_view_not_found: [404, 'data_source_view_not_found'],
  data_source_not_found: [404, 'data_source_not_found'],
  data_source_document_not_found: [404, 'data_source_document_not_found'],
  conflict: [409, 'conflict'],
  refused_in_current_state: [409, 'invalid_request_error'],
  payload_too_large: [413, 'payload_too_large'],
  unsupported_media_type: [415, 'unsupported_media_type'],
  rate_limit_error: [429, 'rate_limit_error'],
  service_unavailable: [503, 'service_unavailable'],
};

describe('errorAnswerOf', () => {
  it.each(Object.entries(EXPECTED))('answers %s with %j', (code, [status, type]) => {
    expect(errorAnswerOf(code as DomainErrorCode)).toEqual({ status, type });
  });
});
