// Types of bundle-page.mjs, for test/bundle.test.ts.
export declare const codecDist: string;
export declare const PAGES: Record<'decodeBlock and blockId (Stardust)' | 'every name of the package', string>;
export declare function bundlePage(source: string): Promise<{ text: string; minified: number; gzip: number }>;
