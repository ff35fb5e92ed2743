// Types of hostile-source.mjs, for test/node/follow-hostile.test.ts.
export type HostileMode = 'honest' | 'forged' | 'oversized' | 'junk-dag' | 'trickle';
export declare function hostileSource(
  tc: object,
  honest: string,
): Promise<{
  url: string;
  state: { mode: HostileMode; claim: number; dag: { width: number; depth: number }; trickleMs: number };
  seen: { milestones: number; cones: number; blocks: number; attempts: number };
  close(): Promise<void>;
}>;
