import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { OrderList } from './OrderList.tsx'
import { RECEIPT_ACTION } from './receipt.ts'

/** /mall/orderList: gold orders after payment (SPEC §2, §4); each opens /mall/orderDetail. */
export default function MallOrderListScreen() {
  useSignals()
  const t = useT()
  const queue = useOutbox(account.value, RECEIPT_ACTION)
  return <OrderList area="gold" title={t('shopOrders.goldTitle')} queue={queue} />
}
