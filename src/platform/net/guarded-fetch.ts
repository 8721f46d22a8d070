import { LookupAddress, LookupAllOptions, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, RequestInit as UndiciRequestInit, buildConnector, fetch as undiciFetch } from 'undici';
import { forbiddenAddressReason } from 'src/platform/net/address-policy';

/** A connection was refused because its host is, or resolves to, an address we may not contact. */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(
      host === address
        ? `The address ${address} is not allowed (${reason}).`
        : `The host ${host} resolves to ${address}, which is not allowed (${reason}).`,
    );
    this.name = 'ForbiddenAddressError';
  }
}

/** What the SDK transports accept as `fetch`. */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  allowPrivateNetworks: boolean;
  /** TCP (and TLS) connection timeout. */
  connectTimeoutMs: number;
  /** Why an address is refused, or null; the address policy unless a test narrows it. */
  forbiddenReason?: (address: string) => string | null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `fetch` whose every connection, redirects included, goes through one check: literal IP hosts
 * are judged before connecting, names at their DNS resolution, and the socket connects to the
 * address that was judged, so a name that resolves differently later (DNS rebinding) cannot slip by.
 * Proxy variables are not honoured: a proxy would connect on our behalf, unchecked.
 */
export function createGuardedFetch(options: GuardedFetchOptions): {
  fetch: GuardedFetch;
  close(): Promise<void>;
} {
  const check = (host: string, address: string): ForbiddenAddressError | null => {
    if (options.allowPrivateNetworks) return null;
    const reason = (options.forbiddenReason ?? forbiddenAddressReason)(address);
    return reason === null ? null : new ForbiddenAddressError(host, address, reason);
  };

  const lookup = (hostname: string, lookupOptions: object, callback: LookupCallback): void => {
    const all: LookupAllOptions = { ...(lookupOptions as LookupAllOptions), all: true };
    dnsLookup(hostname, all, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.map((entry) => check(hostname, entry.address)).find((found) => found);
      if (refused) return callback(refused, []);
      if ((lookupOptions as { all?: boolean }).all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first.address, first.family);
    });
  };

  const connectSocket = buildConnector({ lookup, timeout: options.connectTimeoutMs });
  const dispatcher = new Agent({
    connect: (connectOptions, callback) => {
      if (isIP(connectOptions.hostname)) {
        const refused = check(connectOptions.hostname, connectOptions.hostname);
        if (refused) return callback(refused, null);
      }
      connectSocket(connectOptions, callback);
    },
  });

  const fetch: GuardedFetch = async (url, init) =>
    undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher });

  return { fetch, close: () => dispatcher.close() };
}

/** The forbidden-address refusal somewhere in an error's chain of causes, if any. */
export function findForbiddenAddress(error: unknown): ForbiddenAddressError | null {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof ForbiddenAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
