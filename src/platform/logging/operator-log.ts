import type { Logger } from 'pino';

export type LogFields = Record<string, unknown>;

/**
 * Port: what application code reports to the operator. Application code may import nothing from
 * `@nestjs/common` but `Injectable` (docs/architecture.md, the dependency rules), so it logs through this, not Nest's Logger.
 */
export abstract class OperatorLog {
  abstract info(context: string, fields: LogFields, message: string): void;
  abstract warn(context: string, fields: LogFields, message: string): void;
  abstract error(context: string, fields: LogFields, message: string): void;
}

/** The operator log on the service's pino logger: the same JSON lines as Nest's, with `context`. */
export class PinoOperatorLog extends OperatorLog {
  constructor(private readonly pino: Logger) {
    super();
  }

  info(context: string, fields: LogFields, message: string): void {
    this.pino.info({ context, ...fields }, message);
  }
  warn(context: string, fields: LogFields, message: string): void {
    this.pino.warn({ context, ...fields }, message);
  }
  error(context: string, fields: LogFields, message: string): void {
    this.pino.error({ context, ...fields }, message);
  }
}
