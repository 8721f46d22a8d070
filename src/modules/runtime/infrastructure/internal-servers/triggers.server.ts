import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentSchedulesService, NAME_MAX, PROMPT_MAX } from 'src/modules/triggers/triggers.api';
import type { TriggerView } from 'src/modules/triggers/triggers.api';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';

export interface TriggersServerDeps {
  schedules: AgentSchedulesService;
  log: OperatorLog;
}

const createShape = {
  name: z.string().min(1).max(NAME_MAX).describe('A short name for the schedule, e.g. "Morning digest".'),
  prompt: z
    .string()
    .min(1)
    .max(PROMPT_MAX)
    .describe(
      'The message you are mentioned with at each firing, in a new conversation: say what to do then.',
    ),
  cron: z
    .string()
    .max(128)
    .describe('A 5-field cron expression, e.g. "0 9 * * 1-5" (firings at least 5 minutes apart).'),
  timezone: z
    .string()
    .max(64)
    .default('UTC')
    .describe('The IANA time zone of the cron, e.g. "Europe/Paris".'),
};

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const toolError = (message: string): CallToolResult => ({ ...text(message), isError: true });

/**
 * Tools with which an agent schedules itself: each acts as the run's caller, who becomes the
 * editor of what is created, for the agent whose run calls it (never another agent).
 */
export function triggersServer(deps: TriggersServerDeps, context: InternalToolContext): McpServer {
  const server = new McpServer({ name: 'triggers', version: '1.0.0' });
  const { caller, agentSId, conversationSId } = context;

  /** Refusals (validation, limits, not found, rights) go back to the model as tool errors, never thrown. */
  const guarded = async (tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await work();
    } catch (error) {
      // The service names the HTTP body's fields (`configuration.cron`, `schedule`); the tool's are flat.
      if (error instanceof DomainError) {
        return toolError(
          `${error.message.replace(/^(configuration\.|schedule: )/, '')} Nothing was changed.`,
        );
      }
      deps.log.error('TriggersToolServer', { err: error, tool, conversationSId }, 'A triggers tool failed');
      return toolError(`${tool} failed on the service's side; the schedules are unchanged.`);
    }
  };

  server.registerTool(
    'create_schedule',
    {
      description:
        'Schedules you (this agent) to run on a cron schedule: at each firing a new conversation opens ' +
        'with `prompt`, mentioning you, on behalf of the member you are answering. Firings are at least ' +
        '5 minutes apart; an agent and a conversation have a limited number of schedules.',
      inputSchema: createShape,
    },
    (args) =>
      guarded('create_schedule', async () => {
        const created = await deps.schedules.createByAgent(
          caller,
          { agentSId, conversationSId },
          { name: args.name, customPrompt: args.prompt, cron: args.cron, timezone: args.timezone },
        );
        return text(`Created schedule ${describe(created)}.`);
      }),
  );

  server.registerTool(
    'list_schedules',
    {
      annotations: { readOnlyHint: true },
      description: "Lists this agent's schedules, enabled or disabled, with who set each up.",
    },
    () =>
      guarded('list_schedules', async () => {
        const schedules = (await deps.schedules.list(caller, agentSId)).filter(
          (trigger) => trigger.kind === 'schedule',
        );
        if (schedules.length === 0) return text('This agent has no schedule.');
        return text(schedules.map(describe).join('\n'));
      }),
  );

  server.registerTool(
    'disable_schedule',
    {
      annotations: { idempotentHint: true },
      description:
        'Disables a schedule of this agent, by the id create_schedule or list_schedules gave: it no ' +
        'longer fires. Only one you set up for this member, unless they may edit the agent.',
      inputSchema: {
        scheduleId: z.string().min(1).max(64).describe('The schedule id, e.g. "trg_Nc5Jd2Gh7r".'),
      },
    },
    ({ scheduleId }) =>
      guarded('disable_schedule', async () => {
        const disabled = await deps.schedules.disableByAgent(caller, agentSId, scheduleId);
        return text(`Schedule ${disabled.sId} is disabled: it will not fire.`);
      }),
  );

  return server;
}

function describe(trigger: TriggerView): string {
  const configuration = trigger.configuration;
  const when =
    configuration.type === 'interval'
      ? `every ${String(configuration.intervalDays)} days at ${String(configuration.hour)}:${String(configuration.minute).padStart(2, '0')}`
      : `on "${String(configuration.cron)}"`;
  const next =
    trigger.nextFireAt === null ? 'not firing' : `next at ${new Date(trigger.nextFireAt).toISOString()}`;
  return (
    `${trigger.sId} "${trigger.name}": ${trigger.status}, ${when} (${String(configuration.timezone)}), ${next}, ` +
    `set up by ${trigger.editorEmail ?? trigger.editor} (${trigger.origin === 'agent' ? 'by an agent' : 'by a member'}); ` +
    `prompt: ${JSON.stringify(trigger.customPrompt)}`
  );
}
