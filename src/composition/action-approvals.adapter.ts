import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import {
  ActionApprovalsService,
  ApprovalAnswer,
} from 'src/modules/conversations/application/action-approvals.service';
import { renderAction } from 'src/modules/conversations/application/action-views';
import type { ActionView, BlockedActionView } from 'src/modules/conversations/application/views/action.view';
import { ToolCallApprovalsService } from 'src/modules/runtime/application/tool-call-approvals.service';

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
