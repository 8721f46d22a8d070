/** Every `error.type` the API answers with, in the order the OpenAPI document lists them. */
export const ERROR_TYPES = [
  'invalid_request_error',
  'file_too_large',
  'file_type_not_supported',
  'file_is_empty',
  'missing_authorization_header_error',
  'malformed_authorization_header_error',
  'invalid_api_key_error',
  'workspace_auth_error',
  'webhook_source_auth_error',
  'insufficient_key_scope',
  'conversation_access_restricted',
  'forbidden',
  'not_found',
  'workspace_not_found',
  'user_not_found',
  'api_key_not_found',
  'agent_configuration_not_found',
  'conversation_not_found',
  'message_not_found',
  'file_not_found',
  'wakeup_not_found',
  'trigger_not_found',
  'webhook_source_not_found',
  'webhook_source_view_not_found',
  'space_not_found',
  'data_source_view_not_found',
  'data_source_not_found',
  'data_source_document_not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limit_error',
  'internal_server_error',
  'service_unavailable',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ErrorEnvelope {
  error: { type: ErrorType; message: string };
}

export function errorEnvelope(type: ErrorType, message: string): ErrorEnvelope {
  return { error: { type, message } };
}
