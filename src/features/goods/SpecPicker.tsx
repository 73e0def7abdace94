import { useId } from 'react'
import type { GoodsSpec } from '../../../contract/goods.ts'
import { useT } from '../../i18n/index.ts'
import { clampQuantity, hasPower, maxQuantity, showMoney } from './price.ts'
import { Price } from './Price.tsx'

interface SpecPickerProps {
  specs: GoodsSpec[]
  specId: number | undefined
  onSpec: (id: number) => void
  quantity: number
  onQuantity: (q: number) => void
}

/**
 * SPEC §2 "product detail (with specification selection)": one chip per specification (a sold-out one
 * cannot be picked), what the picked one costs, grants and has left, and the quantity stepper, kept
 * inside 1…min(stock, 99).
 */
export function SpecPicker({ specs, specId, onSpec, quantity, onQuantity }: SpecPickerProps) {
  const t = useT()
  const label = t('goods.spec')
  const spec = specs.find((s) => s.id === specId)
  return (
    <section className="card spec-picker stack" data-testid="spec-picker">
      <div className="field">
        <span>{label}</span>
        <div className="chips" role="radiogroup" aria-label={label}>
          {specs.map((s) => (
            <button
              key={s.id}
              type="button"
              role="radio"
              aria-checked={s.id === specId}
              className={`chip pick spec-chip ${s.id === specId ? 'gold' : ''}`}
              disabled={s.stock <= 0}
              onClick={() => onSpec(s.id)}
              data-testid="spec-chip"
              data-id={s.id}
            >
              {s.name}
              {s.stock <= 0 && <small> · {t('goods.soldOut')}</small>}
            </button>
          ))}
        </div>
      </div>
      {spec && (
        <div className="spec-facts">
          <Price value={spec.price} className="spec-price" />
          <span className="muted small" data-testid="spec-stock">
            {spec.stock > 0 ? t('goods.stock', { stock: spec.stock }) : t('goods.soldOut')}
          </span>
          {hasPower(spec.power) && <span className="small goods-fact">{t('goods.powerEach', { power: showMoney(spec.power, 'power') })}</span>}
        </div>
      )}
      <QuantityStepper value={quantity} stock={spec?.stock ?? 0} onChange={onQuantity} />
    </section>
  )
}

/** − n +, typed or tapped; never below 1 or above what may be bought. */
export function QuantityStepper({ value, stock, onChange }: { value: number; stock: number; onChange: (q: number) => void }) {
  const t = useT()
  const id = useId()
  const max = maxQuantity(stock)
  const set = (q: number) => onChange(clampQuantity(q, stock))
  return (
    <div className="row between gap stepper-row">
      <label htmlFor={id}>{t('goods.quantity')}</label>
      <span className="stepper" data-testid="quantity-stepper">
        <button type="button" className="stepper-btn" onClick={() => set(value - 1)} disabled={value <= 1} aria-label={t('goods.fewer')} data-testid="quantity-minus">
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          value={value}
          onChange={(e) => {
            const digits = e.target.value.replace(/\D/g, '').slice(0, 3)
            if (digits) set(Number(digits))
          }}
          onFocus={(e) => e.target.select()}
          aria-describedby={`${id}-max`}
          data-testid="quantity-input"
        />
        <button type="button" className="stepper-btn" onClick={() => set(value + 1)} disabled={value >= max} aria-label={t('goods.more')} data-testid="quantity-plus">
          +
        </button>
      </span>
      <small id={`${id}-max`} className="muted stepper-max">
        {max > 0 ? t('goods.maxQuantity', { max }) : t('goods.soldOut')}
      </small>
    </div>
  )
}
