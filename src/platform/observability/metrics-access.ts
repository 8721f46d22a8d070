import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from 'src/platform/errors/domain-error';

const BEARER = /^Bearer +([^\s]+) *$/i;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header opens the metrics: it must carry `token` as a bearer. With no
 * token configured, nothing opens them (`required: false` only where a port of their own serves them).
 */
export function metricsRefusal(
  header: string | undefined,
  token: string | null,
  required: boolean,
): DomainError | null {
  if (token === null) {
    return required
      ? new DomainError(
          'invalid_api_key_error',
          'Metrics are closed: set METRICS_TOKEN to scrape them here, or METRICS_PORT to serve them on a port of their own.',
        )
      : null;
  }
  if (!header) {
    return new DomainError(
      'missing_authorization_header_error',
      'Missing Authorization header: send "Bearer <METRICS_TOKEN>".',
    );
  }
  const given = BEARER.exec(header)?.[1];
  if (given === undefined || !timingSafeEqual(digest(given), digest(token))) {
    return new DomainError('invalid_api_key_error', 'The metrics token is invalid.');
  }
  return null;
}
