import { ApiProperty } from '@nestjs/swagger';
import type { SpaceServerView, ViewedServerView } from 'src/modules/agents/application/views/catalogue.view';
import type { RequireApproval } from 'src/modules/agents/domain/catalogue';
import { RemoteToolView } from 'src/modules/agents/http/schemas/catalogue.schema';
import { ApiRequireApproval } from 'src/modules/agents/http/require-approval';

export class ViewedServerSchema implements ViewedServerView {
  /** @example mcp_8MvZ3nQ1kT */
  sId!: string;
  /** @example Ticketing */
  name!: string;
  /** @example "Opens, reads and closes support tickets." */
  description!: string;
  /** The tools its last synchronisation listed. */
  tools!: RemoteToolView[];
  /**
   * The version the server declared (`serverInfo.version`) at its last successful synchronisation,
   * at most 64 characters; empty when none did.
   * @example 1.4.0
   */
  version!: string;
  /** Dust's icon for a remote server */
  icon!: 'ActionCloudArrowLeftRightIcon';
  @ApiProperty({ enum: [true], description: 'Any number of remote servers may be added.' })
  allowMultipleInstances!: true;
  /** Remote servers are added by an admin: always `manual`. */
  availability!: 'manual';
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: null,
    description: 'No OAuth here: always null.',
  })
  authorization!: null;
  @ApiProperty({ type: String, nullable: true, example: null }) documentationUrl!: null;
}

/** A tool server as a space shows it, in the fields of Dust's `MCPServerViewType` this service has. */
export class ServerViewSchema implements SpaceServerView {
  /** @example 12 */
  id!: number;
  /** @example msv_4RbQ7yLm2P */
  sId!: string;
  /** @example vlt_Qz81dVbXk3 */
  spaceId!: string;
  serverType!: 'remote';
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "The view's own name; null: the server's name applies (views have none here).",
  })
  name!: null;
  @ApiProperty({ type: String, nullable: true, example: null }) description!: null;
  server!: ViewedServerSchema;
  @ApiRequireApproval() requireApproval!: RequireApproval;
  @ApiProperty({ type: String, nullable: true, example: null }) oAuthUseCase!: null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null })
  editedByUser!: null;
  /** @example 1767225600000 */
  createdAt!: number;
  /** Its last change, of its approvals (ms). */
  updatedAt!: number;
}

export class ServerViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  serverViews!: ServerViewSchema[];
}
