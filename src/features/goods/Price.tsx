import { useT } from '../../i18n/index.ts'
import { showMoney } from './price.ts'

/** A price as the catalog shows it: the amount (in its asset's decimals, grouped) and its asset, "from" for a lowest price. */
export function Price({ value, asset = 'USDT', from, className = '' }: { value: string; asset?: string; from?: boolean; className?: string }) {
  const t = useT()
  return (
    <span className={`price ${className}`}>
      {from && <small>{t('goods.from')} </small>}
      <strong>{showMoney(value, asset)}</strong> <small>{asset}</small>
    </span>
  )
}
