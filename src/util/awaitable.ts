/** A value now (the embedded store answers in place) or later (a database server answers over the network). */
export type Awaitable<T> = T | Promise<T>;
