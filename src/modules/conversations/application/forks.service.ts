import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { generateSId } from 'src/platform/ids/sid';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { ContentFragmentRepository } from 'src/modules/conversations/application/ports/content-fragment.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { ContentFragmentText } from 'src/modules/conversations/domain/content-fragment';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { Message } from 'src/modules/conversations/domain/message';

/** Forks: a new conversation from the messages of another, up to one of them, and then their files. */
@Injectable()
export class ForksService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly conversationRepository: ConversationRepository,
    private readonly messageRepository: MessageRepository,
    private readonly fragments: ContentFragmentRepository,
    private readonly writer: MessageWriter,
    private readonly unitOfWork: UnitOfWork,
    private readonly log: OperatorLog,
    private readonly clock: Clock,
  ) {}

  /**
   * A new conversation holding the latest versions of the messages up to `sourceMessageSId`, one
   * level deeper, with the content fragments among them. The fragments' files are settled after
   * the commit (`fileCopyStatus` `pending`, then `completed`).
   */
  async fork(caller: Caller, sId: string, sourceMessageSId: string): Promise<Conversation> {
    const parent = await this.conversations.get(caller, sId);
    const source = await this.messages.findMessage(caller, parent, sourceMessageSId);
    const now = this.clock.now();
    const child = await this.unitOfWork.run(async () => {
      const [messages, fragments] = await this.unitOfWork.all([
        () => this.messageRepository.listLatestUpTo(caller.workspaceId, parent.id, source.rank),
        () => this.fragments.listTextsUpTo(caller.workspaceId, parent.id, source.rank),
      ]);
      const copied = [...messages, ...fragments].sort((a, b) => a.rank - b.rank);
      const created = await this.conversationRepository.create({
        sId: generateSId(),
        workspaceId: caller.workspaceId,
        title: parent.title,
        depth: parent.depth + 1,
        spaceId: parent.spaceId,
        requestedSpaceIds: parent.requestedSpaceIds,
        forkedFrom: {
          parentConversationId: parent.id,
          sourceMessageId: source.id,
          branchedAt: now,
          forkedByUserId: caller.userId,
          fileCopyStatus: 'pending',
        },
      });
      await this.copyMessages(created, copied);
      await this.conversationRepository.markRead(caller.workspaceId, created.id, caller.userId, now);
      if (created.title) await this.writer.appendTitle(created, created.title);
      this.unitOfWork.afterCommit(() => this.copyFilesOfFork(created));
      return created;
    });
    return child;
  }

  private async copyMessages(target: Conversation, copied: (Message | ContentFragmentText)[]): Promise<void> {
    if (copied.length === 0) return;
    const first = await this.conversationRepository.allocateRanks(
      target.workspaceId,
      target.id,
      copied.length,
    );
    const newIds = new Map<number, number>();
    const fragments = [];
    for (const [index, message] of copied.entries()) {
      const common = {
        sId: generateSId(),
        workspaceId: target.workspaceId,
        conversationId: target.id,
        rank: first + index,
        version: 0,
      };
      if (message.type === 'content_fragment') {
        const { id: _id, createdAt: _createdAt, type: _type, textBytes: _textBytes, ...rest } = message;
        fragments.push({ ...rest, ...common });
      } else if (message.type === 'user_message') {
        const { id: _id, createdAt: _createdAt, ...rest } = message;
        newIds.set(message.id, (await this.messageRepository.insertUserMessage({ ...rest, ...common })).id);
      } else {
        const { id: _id, createdAt: _createdAt, ...rest } = message;
        const parentMessageId = newIds.get(message.parentMessageId) ?? message.parentMessageId;
        // A generation still running in the parent is not continued in the fork.
        const status = rest.status === 'created' ? 'cancelled' : rest.status;
        await this.messageRepository.insertAgentMessage({
          ...rest,
          ...common,
          parentMessageId,
          status,
        });
      }
    }
    await this.fragments.insert(fragments);
  }

  /**
   * The fork's fragments show their text, copied with them, and the same files, which stay readable
   * by the readers of the conversation they were attached to: nothing is left to copy, so the
   * status goes from `pending` to `completed` once the fork is committed.
   */
  private copyFilesOfFork(child: Conversation): void {
    this.conversationRepository
      .setFileCopyStatus(child.workspaceId, child.id, 'completed')
      .catch((error: unknown) => {
        this.log.error(
          ForksService.name,
          { err: error, conversationId: child.sId },
          'Could not finish the file copy of a fork',
        );
      });
  }
}
