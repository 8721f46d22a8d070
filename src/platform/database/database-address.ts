import { Client, type ClientConfig } from 'pg';

/** Where new connections to the database go. */
export abstract class DatabaseAddress {
  /** The URL a connection opened now dials. */
  abstract url(): string;
  /**
   * Reads the address again, after a connection failed: the embedded server may have come back on
   * another port. A fixed `DATABASE_URL` has nothing to read again.
   */
  abstract refresh(): Promise<void>;
}

export class FixedDatabaseAddress extends DatabaseAddress {
  constructor(private readonly fixed: string) {
    super();
  }

  url(): string {
    return this.fixed;
  }

  async refresh(): Promise<void> {}
}

/** A URL stands for itself; an address already is one. */
export function addressOf(database: string | DatabaseAddress): DatabaseAddress {
  return typeof database === 'string' ? new FixedDatabaseAddress(database) : database;
}

/**
 * pg's client, dialing the address current when it is made (the pool makes one per connection)
 * rather than the one the pool was made with. A failed connection has the address read again, so
 * the next one finds a server that came back elsewhere.
 */
export function clientDialing(address: DatabaseAddress): typeof Client {
  return class DialingClient extends Client {
    constructor(config?: ClientConfig) {
      super({ ...config, connectionString: address.url() });
    }

    override connect(): Promise<Client>;
    override connect(callback: (error: Error | null, client?: Client) => void): void;
    override connect(callback?: (error: Error | null, client?: Client) => void): Promise<Client> | void {
      if (!callback) {
        return super.connect().catch((error: unknown) => {
          void address.refresh();
          throw error;
        });
      }
      super.connect((error: Error | null, client?: Client) => {
        if (error) void address.refresh();
        callback(error, client);
      });
    }
  };
}

/** One connection of its own (a LISTEN, a lock) to wherever the database is now. */
export function databaseClient(address: DatabaseAddress, config: ClientConfig = {}): Client {
  return new (clientDialing(address))(config);
}
