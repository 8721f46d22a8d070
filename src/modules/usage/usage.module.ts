import { Module } from '@nestjs/common';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { TokenBudgetRepository } from 'src/modules/usage/application/ports/token-budget.repository';
import { TokenBudgetService } from 'src/modules/usage/application/token-budget.service';
import { UsageReportService } from 'src/modules/usage/application/usage-report.service';
import { UsageController } from 'src/modules/usage/http/usage.controller';
import { TypeormTokenBudgetRepository } from 'src/modules/usage/infrastructure/typeorm-token-budget.repository';

// RunUsageRecords, which the runtime answers, is bound in src/composition; TokenBudgetService
// answers conversations' RunAllowance there.
@Module({
  imports: [IdentityModule],
  controllers: [UsageController],
  providers: [
    UsageReportService,
    TokenBudgetService,
    { provide: TokenBudgetRepository, useClass: TypeormTokenBudgetRepository },
  ],
  exports: [TokenBudgetService],
})
export class UsageModule {}
