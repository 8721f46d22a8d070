import type { Caller } from 'src/platform/auth/caller';

/** A file shown by a content fragment, as the files context gives it. */
export interface FragmentFile {
  sId: string;
  contentType: string;
  /** Read when it was uploaded; null for images and audio. */
  text: string | null;
}

/**
 * Port: the files a conversation shows, answered by the files context (which itself depends on
 * conversations for its access rule, so it answers this rather than being imported; the binding
 * is in src/composition).
 */
export abstract class FragmentFiles {
  /**
   * A `ready` file of use case `conversation` the caller can read, bound to `conversationSId` so
   * that it is readable exactly by that conversation's readers; refused when it is another
   * conversation's. Runs in the caller's transaction.
   */
  abstract attach(caller: Caller, fileSId: string, conversationSId: string): Promise<FragmentFile>;
}
