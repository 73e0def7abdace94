import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import type { NodeTier } from '../../../contract/node.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { toast } from '../../ui/toast.ts'
import { PaymentDialog } from '../payment/PaymentDialog.tsx'
import { refreshAfterNodePaid, useBuyNode } from './mutations.ts'
import { buyBlock } from './view.ts'

/**
 * "Buy": an order to pay for one node, then the payment dialog. A money action: off offline (the
 * reason shown by the screen), and off when sold out or at the limit, saying which.
 */
export function BuyButton({ tier }: { tier: NodeTier }) {
  useSignals()
  const t = useT()
  const qc = useQueryClient()
  const buy = useBuyNode()
  const [paying, setPaying] = useState<PayOrder | null>(null)
  const block = buyBlock(tier)
  const isOnline = online.value

  async function onBuy() {
    try {
      setPaying(await buy.mutateAsync({ node_id: tier.id }))
    } catch {
      // the server's words are already shown
    }
  }

  return (
    <>
      <button type="button" className="btn primary block" disabled={!isOnline || buy.isPending || block !== null} onClick={onBuy} data-testid="node-buy" data-type={tier.type}>
        {block === 'soldOut' ? t('node.soldOut') : block === 'limit' ? t('node.atLimit') : buy.isPending ? t('node.buying') : t('node.buy', { amount: tier.amount })}
      </button>
      {paying && (
        <PaymentDialog
          key={paying.id}
          order={paying}
          onClose={() => {
            setPaying(null)
            void refreshAfterNodePaid(qc)
          }}
          onPaid={() => {
            toast.success(t('node.paid'))
            void refreshAfterNodePaid(qc)
          }}
        />
      )}
    </>
  )
}
