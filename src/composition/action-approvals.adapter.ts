import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import {
  ActionApprovalsService,
  ApprovalAnswer,
  renderAction,
} from 'src/modules/conversations/conversations.api';
import type { ActionView, BlockedActionView } from 'src/modules/conversations/conversations.api';
import { ToolCallApprovalsService } from 'src/modules/runtime/runtime.api';

/**
 * Conversations' routes answer the calls waiting for approval through the runtime, which owns them
 * and their rules; the answered call is shown as conversations' views show it.
 */
@Injectable()
export class ActionApprovalsAdapter extends ActionApprovalsService {
  constructor(private readonly approvals: ToolCallApprovalsService) {
    super();
  }

  async validate(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
    actionSId: string,
    answer: ApprovalAnswer,
  ): Promise<ActionView> {
    return renderAction(
      await this.approvals.validate(caller, conversationSId, messageSId, actionSId, answer),
    );
  }

  blocked(caller: Caller, conversationSId: string): Promise<BlockedActionView[]> {
    return this.approvals.blocked(caller, conversationSId);
  }
}
