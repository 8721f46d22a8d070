/** Who put a fragment there, as the client that added it described them (Dust's `context`). */
export interface ContentFragmentContextView {
  username: string | null;
  fullName: string | null;
  email: string | null;
  profilePictureUrl: string | null;
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
  contentNodeData: null;
  /** Every fragment here is a file or text of its own: Dust's `file` kind. */
  contentFragmentType: 'file';
  /** A fragment here keeps its text when its file is deleted: never expired. */
  expiredReason: null;
  snippet: null;
  generatedTables: string[];
  sourceProvider: null;
  sourceIcon: null;
}
