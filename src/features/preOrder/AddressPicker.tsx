import { useState } from 'react'
import { Link } from 'wouter'
import type { Address } from '../../../contract/address.ts'
import { maskPhone } from '../../../contract/addressRules.ts'
import { useT } from '../../i18n/index.ts'
import { Icon } from '../../ui/Icon.tsx'
import { Sheet } from '../../ui/Sheet.tsx'
import { Skeleton } from '../../ui/States.tsx'
import { addAddressHref } from './confirm.ts'

function AddressLines({ a }: { a: Address }) {
  const t = useT()
  return (
    <span className="stack-s address-lines">
      <strong>
        {a.name} <span className="muted mono small">{maskPhone(a.phone)}</span>
        {a.is_default && <span className="badge gold address-default">{t('address.default')}</span>}
      </strong>
      <span className="muted small address-text">
        {a.area} {a.address}
      </span>
    </span>
  )
}

interface Props {
  addresses: Address[] | undefined
  loading: boolean
  selected: Address | undefined
  onSelect: (id: number) => void
  /** This screen's address, to come back to after adding an address. */
  back: string
  /** Why the order cannot go yet (no address chosen), as words. */
  error?: string | undefined
}

/**
 * Where the order is delivered (SPEC §5: an address must be chosen when the product ships): the
 * default is preselected; "Change" lists the others; without any, a link to add one and come back.
 */
export function AddressPicker({ addresses, loading, selected, onSelect, back, error }: Props) {
  const t = useT()
  const [open, setOpen] = useState(false)
  return (
    <section className={`card address-pick ${error ? 'invalid' : ''}`} data-testid="order-address">
      <div className="row between">
        <h2 className="row gap-s">
          <Icon name="pin" size={18} />
          {t('preOrder.address')}
        </h2>
        {selected && (
          <button type="button" className="link-btn" onClick={() => setOpen(true)} data-testid="order-address-change">
            {t('preOrder.change')}
          </button>
        )}
      </div>
      {loading && !addresses ? (
        <Skeleton lines={2} />
      ) : selected ? (
        <div data-testid="order-address-selected" data-id={selected.id}>
          <AddressLines a={selected} />
        </div>
      ) : (
        <div className="stack-s">
          <p className="muted small">{t('preOrder.noAddress')}</p>
          <Link href={addAddressHref(back)} className="btn ghost block" data-testid="order-address-add">
            {t('preOrder.addAddress')}
          </Link>
        </div>
      )}
      {error && (
        <small className="form-error" role="alert" data-field="address">
          {error}
        </small>
      )}
      <Sheet open={open} title={t('preOrder.chooseAddress')} onClose={() => setOpen(false)}>
        <ul className="choice-list address-choices">
          {addresses?.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className={`choice address-choice ${a.id === selected?.id ? 'selected' : ''}`}
                aria-pressed={a.id === selected?.id}
                onClick={() => {
                  onSelect(a.id)
                  setOpen(false)
                }}
              >
                <AddressLines a={a} />
              </button>
            </li>
          ))}
        </ul>
        <Link href={addAddressHref(back)} className="btn ghost block" onClick={() => setOpen(false)}>
          {t('preOrder.addAddress')}
        </Link>
      </Sheet>
    </section>
  )
}
