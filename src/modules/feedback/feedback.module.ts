import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.api';
import { FeedbackCountsService } from 'src/modules/feedback/application/feedback-counts.service';
import { FeedbackService } from 'src/modules/feedback/application/feedback.service';
import { FeedbackCountsReadModel } from 'src/modules/feedback/application/ports/feedback-counts.read-model';
import { FeedbackRepository } from 'src/modules/feedback/application/ports/feedback.repository';
import { FeedbackController } from 'src/modules/feedback/http/feedback.controller';
import { TypeormFeedbackCountsReadModel } from 'src/modules/feedback/infrastructure/typeorm-feedback-counts.read-model';
import { TypeormFeedbackRepository } from 'src/modules/feedback/infrastructure/typeorm-feedback.repository';

@Module({
  imports: [ConversationsModule],
  controllers: [FeedbackController],
  providers: [
    FeedbackService,
    FeedbackCountsService,
    { provide: FeedbackRepository, useClass: TypeormFeedbackRepository },
    { provide: FeedbackCountsReadModel, useClass: TypeormFeedbackCountsReadModel },
  ],
  exports: [FeedbackCountsService],
})
export class FeedbackModule {}
