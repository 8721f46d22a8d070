/**
 * The picture shown for an author who has none: a user without an image, or an agent the reader
 * cannot describe. Generated from a seed (an sId, a username), as agents' own default pictures are.
 */
export function defaultPictureUrl(seed: string): string {
  return `https://api.dicebear.com/9.x/bottts-neutral/svg?seed=${encodeURIComponent(seed)}`;
}
