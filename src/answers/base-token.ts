import type { ProtocolParameters } from '../stardust/protocol-parameters.js';

/** The base token of each network (hornet and iota-core configuration); the testnet (rms) is Shimmer's. */
export function baseToken(params: ProtocolParameters) {
  return params.bech32Hrp === 'iota'
    ? { name: 'IOTA', tickerSymbol: 'IOTA', unit: 'IOTA', subunit: 'micro', decimals: 6, useMetricPrefix: false }
    : { name: 'Shimmer', tickerSymbol: 'SMR', unit: 'SMR', subunit: 'glow', decimals: 6, useMetricPrefix: false };
}
