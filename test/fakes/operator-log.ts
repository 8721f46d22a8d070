import { LogFields, OperatorLog } from 'src/platform/logging/operator-log';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  context: string;
  fields: LogFields;
  message: string;
}

/** An operator log that keeps what it is told, so a test can check what the operator would read. */
export class RecordingOperatorLog extends OperatorLog {
  readonly entries: LogEntry[] = [];

  info(context: string, fields: LogFields, message: string): void {
    this.entries.push({ level: 'info', context, fields, message });
  }
  warn(context: string, fields: LogFields, message: string): void {
    this.entries.push({ level: 'warn', context, fields, message });
  }
  error(context: string, fields: LogFields, message: string): void {
    this.entries.push({ level: 'error', context, fields, message });
  }

  messages(level: LogEntry['level']): string[] {
    return this.entries.filter((entry) => entry.level === level).map((entry) => entry.message);
  }
}
