import { get } from './api.js';

// What the page says in the network's own terms: amounts in its unit with its decimals (as /info names them), times
// in the reader's time zone, and its addresses' human-readable part.

export interface Info {
  status: { latestMilestone: { index: number; timestamp: number; milestoneId: string } };
  protocol: { networkName: string; bech32Hrp: string };
  baseToken: { unit: string; decimals: number };
}

let info: Promise<Info> | undefined;
/** The node's /info, read once a page load (its latest milestone: `latestInfo`). */
export const networkInfo = (): Promise<Info> => (info ??= get<Info>('/api/core/v2/info'));
export const latestInfo = (): Promise<Info> => get<Info>('/api/core/v2/info');

/** A raw amount (a decimal string) in the network's unit: 1234500 at 6 decimals is "1.2345 SMR". */
export function amount(raw: string | bigint, token: Info['baseToken']): string {
  const digits = BigInt(raw)
    .toString()
    .padStart(token.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - token.decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - token.decimals).replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`} ${token.unit}`;
}

/** A unix time in seconds, in the reader's time zone. */
export const time = (seconds: number): string => new Date(seconds * 1000).toLocaleString();
