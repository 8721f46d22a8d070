/** Who put a fragment there, as Dust describes it: not recorded with the fragment. */
export interface ContentFragmentContextView {
  username: null;
  fullName: null;
  email: null;
  profilePictureUrl: null;
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
  sourceUrl: null;
  context: ContentFragmentContextView;
  contentNodeData: null;
}
