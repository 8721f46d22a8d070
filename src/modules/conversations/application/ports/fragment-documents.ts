import type { Caller } from 'src/platform/auth/caller';

/** A document of a data source shown by a content fragment, as the data-sources context reads it. */
export interface FragmentDocument {
  documentId: string;
  /** sId of the view the caller reads it through. */
  viewSId: string;
  /** Name of the space that view belongs to. */
  spaceName: string;
  title: string;
  mimeType: string;
  sourceUrl: string | null;
  text: string;
}

/**
 * Port: the documents a conversation shows, answered by the data-sources context (which depends on
 * files, which depend on conversations: so it answers this rather than being imported; the binding
 * is in src/composition).
 */
export abstract class FragmentDocuments {
  /**
   * Document `documentId` as the caller reads it through view `viewSId`: a view of a space they
   * can access, within its parents. Anything else is not found, and says so.
   */
  abstract read(caller: Caller, viewSId: string, documentId: string): Promise<FragmentDocument>;
}
