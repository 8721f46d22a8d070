import { OneOf, Text } from 'src/platform/http/input-fields';
import { SID_PATTERN } from 'src/platform/http/route-params';

export class ValidateActionDto {
  /**
   * sId of the action waiting for approval
   * @example act_4fQx9LmT2a
   */
  @Text({ max: 64, pattern: SID_PATTERN })
  actionId!: string;

  /**
   * Approved: the tool runs and the agent goes on. Rejected: the agent is told you declined.
   * @example approved
   */
  @OneOf(['approved', 'rejected'])
  approved!: 'approved' | 'rejected';
}
