// The chain a sign-in message names (EIP-4361 "Chain ID"). The server accepts only the chains the
// platform runs on; a wallet on any other network still signs in, naming the platform's login chain:
// the signature itself does not depend on the wallet's network. Pure.

export function signInChainId(walletChainId: number, chains: readonly { id: number }[], loginChainId: number): number {
  return chains.some((c) => c.id === walletChainId) ? walletChainId : loginChainId
}
