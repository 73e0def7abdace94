import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { OrderList } from './OrderList.tsx'
import { RECEIPT_ACTION } from './receipt.ts'

/** /shop/orderList: device orders after payment (SPEC §2, §4). */
export default function ShopOrderListScreen() {
  useSignals()
  const t = useT()
  const queue = useOutbox(account.value, RECEIPT_ACTION)
  return <OrderList area="machine" title={t('shopOrders.machineTitle')} queue={queue} />
}
