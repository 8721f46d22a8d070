import type { ErrorCode } from 'src/platform/errors/domain-error';

export interface ErrorEnvelope {
  error: { type: ErrorCode; message: string };
}

export function errorEnvelope(type: ErrorCode, message: string): ErrorEnvelope {
  return { error: { type, message } };
}
