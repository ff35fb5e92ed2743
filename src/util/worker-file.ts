import { existsSync } from 'node:fs';

/**
 * The built file of a worker thread (`dist/NAME.cjs`, CommonJS so that both builds can start it): beside the bundle
 * that holds this code, or, when running from the sources (src/util/), in dist/.
 */
export function builtWorkerFile(name: string): URL {
  for (const relative of [`./${name}.cjs`, `../../dist/${name}.cjs`]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(`tangle-core: ${name}.cjs is missing beside the library (run npm run build)`);
}
