/** Who put a fragment there, as the client that added it described them (Dust's `context`). */
export interface ContentFragmentContextView {
  username: string | null;
  fullName: string | null;
  email: string | null;
  profilePictureUrl: string | null;
}

/** The data source document a `content_node` fragment shows (Dust's `contentNodeData`). */
export interface ContentNodeDataView {
  nodeId: string;
  nodeDataSourceViewId: string;
  nodeType: 'document';
  /** No connector behind a data source here. */
  provider: null;
  spaceName: string;
}

/** The wire form of a content fragment, in the message list and in its event. */
export interface ContentFragmentView {
  type: 'content_fragment';
  sId: string;
  id: number;
  rank: number;
  version: number;
  created: number;
  title: string;
  contentType: string;
  fileId: string | null;
  textBytes: number;
  // Dust's fields besides ours.
  visibility: 'visible';
  contentFragmentId: string;
  contentFragmentVersion: 'latest';
  textUrl: string;
  sourceUrl: string | null;
  context: ContentFragmentContextView;
  /** Dust's kind: `content_node` for a data source document, `file` for a file or text of its own. */
  contentFragmentType: 'file' | 'content_node';
  /** The document's id in its data source: only on a `content_node`. */
  nodeId?: string;
  nodeDataSourceViewId?: string;
  nodeType?: 'document';
  contentNodeData: ContentNodeDataView | null;
  /** A fragment here keeps its text when its file is deleted: never expired. */
  expiredReason: null;
  snippet: null;
  generatedTables: string[];
  sourceProvider: null;
  sourceIcon: null;
}
