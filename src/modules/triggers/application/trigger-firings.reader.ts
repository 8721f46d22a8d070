import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { ConversationsService } from 'src/modules/conversations/conversations.api';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import type { TriggerFiringsPage } from 'src/modules/triggers/application/views/trigger.view';

export const FIRINGS_PAGE_DEFAULT = 20;
export const FIRINGS_PAGE_MAX = 100;

/** A trigger's firings, failed ones included, for the readers of its agent. */
@Injectable()
export class TriggerFiringsReader {
  constructor(
    private readonly triggersService: TriggersService,
    private readonly triggers: TriggerRepository,
    private readonly conversations: ConversationsService,
  ) {}

  /**
   * A page of the trigger's firings, newest first. The cursor is the `nextCursor` of the page
   * before; a firing's conversation is named only when the caller's key reads conversations and
   * the caller can read that one.
   */
  async page(
    caller: Caller,
    agentSId: string,
    sId: string,
    options: { limit?: number; cursor?: string },
  ): Promise<TriggerFiringsPage> {
    const limit = options.limit ?? FIRINGS_PAGE_DEFAULT;
    const beforeId = options.cursor === undefined ? null : parseCursor(options.cursor);
    const trigger = await this.triggersService.get(caller, agentSId, sId);
    const found = await this.triggers.pageFirings(caller.workspaceId, trigger.id, limit + 1, beforeId);
    const firings = found.slice(0, limit);
    const readable = caller.hasScope('read:conversation')
      ? await this.conversations.readableAmong(
          caller,
          firings.flatMap(({ conversationId }) => (conversationId === null ? [] : [conversationId])),
        )
      : new Map<number, string>();
    return {
      firings: firings.map((firing) => ({
        id: firing.id,
        firedFor: firing.dueAt.getTime(),
        status: firing.status,
        error: firing.error,
        conversationId: firing.conversationId === null ? null : (readable.get(firing.conversationId) ?? null),
        created: firing.createdAt.getTime(),
      })),
      nextCursor: found.length > limit ? String(firings[firings.length - 1].id) : null,
    };
  }
}

function parseCursor(cursor: string): number {
  if (!/^[1-9]\d{0,14}$/.test(cursor)) {
    throw new InvalidRequestError('cursor: give the nextCursor of the previous page.');
  }
  return Number(cursor);
}
