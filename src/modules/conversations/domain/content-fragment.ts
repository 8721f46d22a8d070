import { InvalidRequestError } from 'src/platform/errors/domain-error';

/**
 * A file or a piece of text put in a conversation: a slot of its own (it has a rank), shown in the
 * message list and given to the model as text. Its text is kept with it, read once when attached.
 */
export interface ContentFragment {
  type: 'content_fragment';
  id: number;
  sId: string;
  workspaceId: number;
  conversationId: number;
  rank: number;
  version: number;
  title: string;
  contentType: string;
  /** sId of the file it shows; null for inline text. */
  fileSId: string | null;
  /** UTF-8 bytes of its text (0 for an image or audio file, which has none). */
  textBytes: number;
  /** Where its content comes from, as the client said: kept as a link, never fetched. */
  sourceUrl: string | null;
  /** Who put it there, as the client described them. */
  author: FragmentAuthor | null;
  /** The data source document it shows, when it was attached by `nodeId`; null otherwise. */
  node: FragmentNode | null;
  createdAt: Date;
}

/** A data source document a fragment shows (Dust's content node), as it was when attached. */
export interface FragmentNode {
  nodeId: string;
  nodeDataSourceViewId: string;
  /** The name of the space whose view it was read through. */
  spaceName: string;
}

/** Dust's `context` of a fragment: who put it there, every field optional. */
export interface FragmentAuthor {
  username: string | null;
  fullName: string | null;
  email: string | null;
  profilePictureUrl: string | null;
}

/** A fragment as the model reads it. */
export interface ContentFragmentText extends ContentFragment {
  text: string;
}

export const FRAGMENT_TITLE_MAX = 512;
/** Inline text is for snippets; a document is uploaded as a file. */
export const INLINE_CONTENT_MAX_BYTES = 512 * 1024;
/** Fragments one request may add. */
export const FRAGMENTS_PER_REQUEST_MAX = 16;

/** The content types inline text may declare: text as it is. */
export const INLINE_CONTENT_TYPES = [
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/html',
  'application/json',
] as const;

/** What a fragment may say of itself besides its content: its source link and its author. */
export interface FragmentOrigin {
  sourceUrl?: string | null;
  author?: FragmentAuthor | null;
}

export type FragmentInput = FragmentOrigin &
  (
    | { title: string; fileId: string }
    | { title: string; content: string; contentType: string }
    | { title: string; nodeId: string; nodeDataSourceViewId: string }
  );

/** Exactly one of a file or inline text, within the limits; `field` locates errors in the body. */
export function checkFragmentInput(
  input: {
    title: string;
    fileId?: string;
    content?: string;
    contentType?: string;
    nodeId?: string;
    nodeDataSourceViewId?: string;
    url?: string | null;
    context?: Partial<FragmentAuthor> | null;
  },
  field: string,
): FragmentInput {
  const origin: FragmentOrigin = {
    sourceUrl: input.url ?? null,
    author: input.context
      ? {
          username: input.context.username ?? null,
          fullName: input.context.fullName ?? null,
          email: input.context.email ?? null,
          profilePictureUrl: input.context.profilePictureUrl ?? null,
        }
      : null,
  };
  const inline = input.content !== undefined || input.contentType !== undefined;
  const node = input.nodeId !== undefined || input.nodeDataSourceViewId !== undefined;
  if (node) {
    if (input.fileId !== undefined || inline || (input.url ?? null) !== null) {
      throw new InvalidRequestError(
        `${field.replace(/\.$/, '') || 'body'}: a data source document (nodeId) comes with nodeDataSourceViewId only: no fileId, content, contentType or url.`,
      );
    }
    if (input.nodeId === undefined || input.nodeDataSourceViewId === undefined) {
      throw new InvalidRequestError(`${field}nodeId, ${field}nodeDataSourceViewId: give both.`);
    }
    return {
      ...origin,
      title: input.title,
      nodeId: input.nodeId,
      nodeDataSourceViewId: input.nodeDataSourceViewId,
    };
  }
  if (input.fileId !== undefined && !inline) return { ...origin, title: input.title, fileId: input.fileId };
  if (input.fileId === undefined && input.content !== undefined && input.contentType !== undefined) {
    const bytes = Buffer.byteLength(input.content);
    if (bytes > INLINE_CONTENT_MAX_BYTES) {
      throw new InvalidRequestError(
        `${field}content: ${bytes} bytes, above the ${INLINE_CONTENT_MAX_BYTES} bytes of inline text; upload a file instead.`,
      );
    }
    return { ...origin, title: input.title, content: input.content, contentType: input.contentType };
  }
  throw new InvalidRequestError(
    `${field.replace(/\.$/, '') || 'body'}: give fileId (an uploaded file), content with contentType (inline text), or nodeId with nodeDataSourceViewId (a data source document).`,
  );
}

/**
 * The fragments' texts within `budgetBytes`, in conversation order: a text that does not fit is cut
 * where the budget ends (on a character boundary), and the cut is said in the text the model reads.
 */
export function fitToBudget<T extends { text: string; textBytes: number }>(
  fragments: T[],
  budgetBytes: number,
): T[] {
  let left = budgetBytes;
  return fragments.map((fragment) => {
    const bytes = Buffer.from(fragment.text);
    if (bytes.length <= left) {
      left -= bytes.length;
      return fragment;
    }
    // Decoding drops a character split by the cut.
    const kept = new TextDecoder().decode(bytes.subarray(0, left)).replace(/\uFFFD$/, '');
    left = 0;
    const note = `[Content cut: ${Buffer.byteLength(kept)} of ${bytes.length} bytes shown; the conversation's content fragments may give the model ${budgetBytes} bytes in all.]`;
    return { ...fragment, text: kept ? `${kept}\n${note}` : note };
  });
}
