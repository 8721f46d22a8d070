/**
 * What other contexts use of feedback: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { FeedbackCountsService } from 'src/modules/feedback/application/feedback-counts.service';
export { FeedbackModule } from 'src/modules/feedback/feedback.module';
