/**
 * Canonical JSON of a list (features, unlock conditions, native tokens): two lists give the same text exactly when
 * their bytes are equal, which is how the chain rules compare what a transition may not change.
 */
export const canonical = <T>(list: readonly T[], codec: { toJson(v: T): unknown }): string =>
  JSON.stringify(list.map(codec.toJson));
