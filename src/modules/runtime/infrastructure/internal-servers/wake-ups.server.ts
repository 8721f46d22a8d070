import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Clock } from 'src/platform/clock/clock';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { WakeUpDetails, WakeUpsService } from 'src/modules/wakeups/wakeups.api';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';

export interface WakeUpsServerDeps {
  wakeUps: WakeUpsService;
  clock: Clock;
  log: OperatorLog;
}

/** The reason a wake-up posts is limited as on the HTTP route. */
const MESSAGE_MAX = 1_000;
/** A one-shot wake-up fires at most 31 days ahead. */
const DELAY_MAX_MINUTES = 31 * 24 * 60;

const scheduleShape = {
  message: z
    .string()
    .min(1)
    .max(MESSAGE_MAX)
    .describe('Posted to this conversation when the wake-up fires: say what to do then.'),
  fireAt: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Wake up once at this ISO-8601 time, e.g. "2030-01-31T09:00:00Z" (at most 31 days ahead).'),
  delayMinutes: z
    .number()
    .int()
    .min(1)
    .max(DELAY_MAX_MINUTES)
    .optional()
    .describe('Wake up once, this many minutes from now.'),
  cron: z
    .string()
    .max(128)
    .optional()
    .describe(
      'Wake up repeatedly on this 5-field cron schedule, e.g. "0 9 * * 1-5" (at least 5 minutes apart).',
    ),
  timezone: z
    .string()
    .max(64)
    .optional()
    .describe('With cron: the IANA timezone of the schedule, e.g. "Europe/Paris" (default UTC).'),
  maxFires: z
    .number()
    .int()
    .min(1)
    .max(32)
    .optional()
    .describe('With cron: how many times it fires at most (default 32).'),
};

type ScheduleArgs = z.infer<z.ZodObject<typeof scheduleShape>>;

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const toolError = (message: string): CallToolResult => ({ ...text(message), isError: true });

/**
 * Tools that schedule, list and cancel wake-ups of the run's conversation: each acts as the run's
 * caller (who owns what it schedules), for the agent whose run calls it.
 */
export function wakeUpsServer(deps: WakeUpsServerDeps, context: InternalToolContext): McpServer {
  const server = new McpServer({ name: 'wake_ups', version: '1.0.0' });
  const { caller, conversationSId } = context;

  /** Refusals (validation, not found, conflict) go back to the model as tool errors, never thrown. */
  const guarded = async (tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await work();
    } catch (error) {
      // The service's messages name the HTTP body's fields (`scheduleConfig.fireAt`); the tool's are bare.
      if (error instanceof DomainError) return toolError(error.message.replace(/^scheduleConfig\./, ''));
      deps.log.error('WakeUpsToolServer', { err: error, tool, conversationSId }, 'A wake-up tool failed');
      return toolError(`${tool} failed on the service's side; the wake-ups are unchanged.`);
    }
  };

  server.registerTool(
    'schedule_wake_up',
    {
      description:
        'Schedules a wake-up of this conversation: when it fires, `message` is posted here and you are ' +
        'asked to act on it. Give exactly one of fireAt, delayMinutes or cron. A conversation has at ' +
        'most one scheduled wake-up.',
      inputSchema: scheduleShape,
    },
    (args) =>
      guarded('schedule_wake_up', async () => {
        const schedule = scheduleInput(args, deps.clock.now());
        if (typeof schedule === 'string') return toolError(schedule);
        const created = await deps.wakeUps.create(caller, conversationSId, {
          agentConfigurationId: context.agentSId,
          scheduleConfig: schedule,
          reason: args.message,
          maxFires: args.maxFires,
        });
        return text(`Scheduled wake-up ${created.wakeUp.sId}: ${describeSchedule(created)}.`);
      }),
  );

  server.registerTool(
    'list_wake_ups',
    {
      annotations: { readOnlyHint: true },
      description:
        'Lists the wake-ups scheduled in this conversation (not those already fired or cancelled).',
    },
    () =>
      guarded('list_wake_ups', async () => {
        const scheduled = (await deps.wakeUps.list(caller, conversationSId)).filter(
          (details) => details.wakeUp.status === 'scheduled',
        );
        if (scheduled.length === 0) return text('No wake-up is scheduled in this conversation.');
        return text(
          scheduled
            .map(
              (details) =>
                `${details.wakeUp.sId}: ${describeSchedule(details)}, for agent ${details.wakeUp.agentSId}, ` +
                `scheduled by ${details.ownerSId}; message: ${JSON.stringify(details.wakeUp.reason)}`,
            )
            .join('\n'),
        );
      }),
  );

  server.registerTool(
    'cancel_wake_up',
    {
      annotations: { idempotentHint: true },
      description: 'Cancels a scheduled wake-up of this conversation, by the id schedule_wake_up gave.',
      inputSchema: { wakeUpId: z.string().min(1).max(64).describe('The wake-up id, e.g. "wku_8fK2mQ1xZa".') },
    },
    ({ wakeUpId }) =>
      guarded('cancel_wake_up', async () => {
        const { wakeUp } = await deps.wakeUps.cancel(caller, conversationSId, wakeUpId);
        return text(
          wakeUp.status === 'cancelled'
            ? `Wake-up ${wakeUp.sId} is cancelled: it will not fire.`
            : `Wake-up ${wakeUp.sId} was not scheduled any more (${wakeUp.status}); nothing changed.`,
        );
      }),
  );

  return server;
}

/** The wake-ups service's schedule from the tool's arguments, or a sentence saying what is wrong. */
function scheduleInput(args: ScheduleArgs, now: Date) {
  const kinds = [args.fireAt, args.delayMinutes, args.cron].filter((value) => value !== undefined);
  if (kinds.length !== 1) return 'Give exactly one of fireAt, delayMinutes or cron.';
  if (args.cron === undefined && (args.timezone !== undefined || args.maxFires !== undefined)) {
    return 'timezone and maxFires go only with cron: a one-time wake-up fires once, at its own time.';
  }
  if (args.cron !== undefined) {
    return { type: 'cron', cron: args.cron, timezone: args.timezone ?? 'UTC' };
  }
  const fireAt =
    args.fireAt !== undefined ? Date.parse(args.fireAt) : now.getTime() + (args.delayMinutes ?? 0) * 60_000;
  return { type: 'one_shot', fireAt };
}

function describeSchedule({ wakeUp }: WakeUpDetails): string {
  const next = wakeUp.nextFireAt?.toISOString() ?? 'never again';
  if (wakeUp.schedule.type === 'one_shot') return `fires once at ${next}`;
  return (
    `fires on "${wakeUp.schedule.cron}" (${wakeUp.schedule.timezone}), next at ${next}, ` +
    `at most ${wakeUp.maxFires} times`
  );
}
