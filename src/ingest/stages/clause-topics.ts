/** What a clause is about, from a vocabulary of clause names with learned weights over its words. */
export function topicName(_text: string): string | null {
  return null;
}
