import type { ServerOptions } from '../http/server.js';

// The options of `serve` that shape the HTTP answers, shared by every way of serving (one process, the workers of
// `--workers N`, a reader of a database), and passed on to the workers as the same flags.

export interface HttpFlags {
  network: string;
  host: string;
  synced: boolean;
  'jwt-secret'?: string | undefined;
  'public-routes'?: string | undefined;
  'error-code-as-string': boolean;
}

export function serverOptions(values: HttpFlags): Omit<ServerOptions, 'ledger'> {
  return {
    ...(values['jwt-secret'] !== undefined ? { jwtSecret: values['jwt-secret'] } : {}),
    ...(values['public-routes'] !== undefined
      ? { publicRoutes: values['public-routes'].split(',').filter(Boolean) }
      : {}),
    errorCodeAsString: values['error-code-as-string'],
  };
}

/** The flags a worker of `serve --workers N` gets, after the ones that name its store. */
export function workerFlags(values: HttpFlags, port: number): string[] {
  return [
    ...['--network', values.network, '--port', String(port), '--host', values.host],
    ...(values['jwt-secret'] !== undefined ? ['--jwt-secret', values['jwt-secret']] : []),
    ...(values['public-routes'] !== undefined ? ['--public-routes', values['public-routes']] : []),
    ...(values.synced ? ['--synced'] : []),
    ...(values['error-code-as-string'] ? ['--error-code-as-string'] : []),
  ];
}

/** A database URL without its password, for printing. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, '$1:***@');
}
