import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Who added a fragment, as the client that added it said (Dust's `context`); null where it said nothing. */
@ApiSchema({ name: 'ContentFragmentContextSchema' })
export class ContentFragmentContextView {
  /** @example ada */
  username!: string | null;
  /** @example "Ada Lovelace" */
  fullName!: string | null;
  /** @example ada@example.com */
  email!: string | null;
  profilePictureUrl!: string | null;
}

/** The data source document a `content_node` fragment shows (Dust's `contentNodeData`). */
@ApiSchema({ name: 'ContentNodeDataSchema' })
export class ContentNodeDataView {
  /** @example refund-policy */
  nodeId!: string;
  /** @example dsv_Pq7Rw2Kx9M */
  nodeDataSourceViewId!: string;
  nodeType!: 'document';
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: no connector behind a data source',
  })
  provider!: null;
  /** @example "Company Data" */
  spaceName!: string;
}

/** A file, inline text or data source document put in a conversation: a slot of the message list of its own. */
@ApiSchema({ name: 'ContentFragment' })
export class ContentFragmentView {
  type!: 'content_fragment';
  /** @example Xq3bT9kLmA */
  sId!: string;
  /** @example 42 */
  id!: number;
  /** @example 0 */
  rank!: number;
  /** @example 0 */
  version!: number;
  /** @example 1795413517290 */
  created!: number;
  /** @example "Q3 board deck.pdf" */
  title!: string;
  /** @example application/pdf */
  contentType!: string;
  /**
   * null for inline text
   * @example fil_8Kd02mXq1a
   */
  fileId!: string | null;
  /**
   * UTF-8 bytes of its text (0 for an image or audio file)
   * @example 18342
   */
  textBytes!: number;
  visibility!: 'visible';
  /**
   * Dust's id across versions: the sId
   * @example Xq3bT9kLmA
   */
  contentFragmentId!: string;
  /** A fragment has one version */
  contentFragmentVersion!: 'latest';
  /**
   * API path of its text (GET, readers of the conversation)
   * @example /api/w/Wk3xY8qPzL/assistant/conversations/Cv3nR8tY1a/content_fragments/Xq3bT9kLmA/text
   */
  textUrl!: string;
  /**
   * The link its creator gave (`url`): kept as it is, never fetched
   * @example https://docs.example.com/q3-plan
   */
  sourceUrl!: string | null;
  context!: ContentFragmentContextView;
  /** The document it shows (a `content_node`); null for a file or text */
  contentNodeData!: ContentNodeDataView | null;
  /** Dust's kind of fragment: `content_node` for a data source document, else `file` */
  contentFragmentType!: 'file' | 'content_node';
  /**
   * The document's id in its data source: only on a `content_node`
   * @example refund-policy
   */
  nodeId?: string;
  /**
   * The view it was read through: only on a `content_node`
   * @example dsv_Pq7Rw2Kx9M
   */
  nodeDataSourceViewId?: string;
  /** `document`: only on a `content_node` */
  nodeType?: 'document';
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: a fragment keeps its text when its file or data source goes',
  })
  expiredReason!: null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: no preview is kept apart from the text',
  })
  snippet!: null;
  /** Always empty: no table is derived from a fragment */
  generatedTables!: string[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Always null: set by Dust for a connector's node",
  })
  sourceProvider!: null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Always null: set by Dust for a connector's node",
  })
  sourceIcon!: null;
}

export class ContentFragmentResponse {
  contentFragment!: ContentFragmentView;
}
