import { useState } from 'react'
import type { OrderType, Side } from '../../../contract/trade.ts'
import type { FieldName, OrderDraft } from './form.ts'

/** The order form's state, held by the trade screen so the book can put a tapped price into it. */
export interface OrderFormState {
  draft: OrderDraft
  /** True once the user pressed the button: problems show from then on. */
  tried: boolean
  setSide(side: Side): void
  setType(type: OrderType): void
  setField(field: FieldName, text: string): void
  /** A price tapped in the book: a limit order at that price. */
  pickPrice(price: string): void
  setTried(tried: boolean): void
  /** After a placed order: the amounts go, side, type and price stay for the next one. */
  clearAmounts(): void
}

export function useOrderForm(): OrderFormState {
  const [draft, setDraft] = useState<OrderDraft>({ side: 'buy', type: 'limit', price: '', size: '', amount: '' })
  const [tried, setTried] = useState(false)
  return {
    draft,
    tried,
    setSide: (side) => {
      setDraft((d) => ({ ...d, side, size: '', amount: '' }))
      setTried(false)
    },
    setType: (type) => {
      setDraft((d) => ({ ...d, type }))
      setTried(false)
    },
    setField: (field, text) => setDraft((d) => ({ ...d, [field]: text })),
    pickPrice: (price) => setDraft((d) => ({ ...d, type: 'limit', price })),
    setTried,
    clearAmounts: () => {
      setDraft((d) => ({ ...d, size: '', amount: '' }))
      setTried(false)
    },
  }
}
