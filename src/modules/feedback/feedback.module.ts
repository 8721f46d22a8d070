import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { FeedbackService } from 'src/modules/feedback/application/feedback.service';
import { FeedbackRepository } from 'src/modules/feedback/application/ports/feedback.repository';
import { FeedbackController } from 'src/modules/feedback/http/feedback.controller';
import { TypeormFeedbackRepository } from 'src/modules/feedback/infrastructure/typeorm-feedback.repository';

@Module({
  imports: [ConversationsModule],
  controllers: [FeedbackController],
  providers: [FeedbackService, { provide: FeedbackRepository, useClass: TypeormFeedbackRepository }],
})
export class FeedbackModule {}
