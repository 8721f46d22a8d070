import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What members read of remote tool servers holds no secret and no byte of a server's answer.
 * Credentials are removed from stored URLs (fetch refuses a URL with credentials, so no such server
 * ever synchronised), and synchronisation errors of the older kind, which repeated the SDK's
 * message and with it the server's response, are replaced. Data only; there is nothing to undo.
 */
export class RemoteServerTextsShown1795647280310 implements MigrationInterface {
  name = 'RemoteServerTextsShown1795647280310';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE remote_mcp_servers SET url = regexp_replace(url, $1, '\\1') WHERE url ~ $1`,
      [URL_WITH_CREDENTIALS],
    );
    await queryRunner.query(
      `UPDATE remote_mcp_servers SET last_sync_error = $1
       WHERE last_sync_error LIKE 'The server did not list its tools: %'
          OR last_sync_error LIKE 'The server did not answer as an MCP server: %'`,
      ['The last synchronisation failed; synchronise the server again to see why.'],
    );
  }

  public async down(): Promise<void> {
    // The removed credentials and response bytes are not kept anywhere to put back.
  }
}

/** A scheme, then an authority whose user information ends at its last `@`. */
const URL_WITH_CREDENTIALS = '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\\\]*@';
