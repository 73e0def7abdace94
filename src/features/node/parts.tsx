import type { MyNode, NodeTier } from '../../../contract/node.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatReleaseDay } from '../release/progress.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { seatsTakenPercent } from './view.ts'
import { Figure } from '../../ui/Figure.tsx'
import { Amount } from '../../ui/Amount.tsx'

const day = (ms: number) => formatReleaseDay(ms, LANG_TAG[lang.value])

/** A tier's figures: stake, level, term, power, daily mining, fee weight, and the seats with a bar. */
export function TierFigures({ tier }: { tier: NodeTier }) {
  const t = useT()
  const pct = seatsTakenPercent(tier)
  return (
    <>
      <dl className="node-figures">
        <Figure label={t('node.stake')}>
          <Amount value={tier.amount} measure="USDT" />
        </Figure>
        <Figure label={t('node.level')}>T{tier.level_id}</Figure>
        <Figure label={t('node.term')}>{t('node.days', { days: tier.days })}</Figure>
        <Figure label={t('node.power')}>{showAmount(units(tier.power), 'power')}</Figure>
        <Figure label={t('node.machineRate')}>{tier.machine_rate}%</Figure>
        <Figure label={t('node.withdrawRate')}>{tier.withdraw_rate}%</Figure>
      </dl>
      <div className="row gap">
        <span className="progress release-bar" role="progressbar" aria-label={t('node.seatsTaken')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <span style={{ width: `${pct}%` }} />
        </span>
        <span className="small muted mono" data-testid="node-seats">
          {t('node.seatsLeft', { left: tier.seats_left, total: tier.total })}
        </span>
      </div>
      <p className="small muted">{t('node.limit', { limit: tier.limit_num, held: tier.held })}</p>
    </>
  )
}

/** SPEC §1 grants of a tier, as a list; dividendShare: the percent of each day's trading fees node holders share. */
export function Grants({ tier, dividendShare }: { tier: Pick<NodeTier, 'level_id' | 'withdraw_rate' | 'machine_rate' | 'airdrop_multiplier' | 'advanced_agent'>; dividendShare: string }) {
  const t = useT()
  return (
    <ul className="node-grants" data-testid="node-grants">
      <li>{t('node.grant.level', { level: tier.level_id })}</li>
      <li>{t('node.grant.fees', { rate: tier.withdraw_rate })}</li>
      <li>{t('node.grant.mining', { rate: tier.machine_rate })}</li>
      {tier.advanced_agent && <li>{t('node.grant.agent')}</li>}
      {tier.airdrop_multiplier > 1 && <li>{t('node.grant.airdrop', { times: tier.airdrop_multiplier })}</li>}
      <li>{t('node.grant.dividends', { share: dividendShare })}</li>
    </ul>
  )
}

/** One of the caller's nodes: status, stake, days left, what it earned, the loan against it. */
export function MyNodeCard({ n }: { n: MyNode }) {
  const t = useT()
  return (
    <li className="card stack node-mine" data-testid="my-node" data-id={n.id} data-status={n.status}>
      <div className="row gap">
        <strong className="grow">{t(`node.type.${n.type}`)}</strong>
        <span className={`badge ${n.status === 'active' ? 'gold' : n.status === 'returned' ? 'teal' : ''}`} data-testid="my-node-status">
          {t(`node.status.${n.status}`)}
        </span>
      </div>
      <dl className="node-figures">
        <Figure label={t('node.stake')}>
          <Amount value={n.amount} measure="USDT" />
        </Figure>
        <Figure label={t('node.daysLeft')} testId="my-node-days-left">
          {t('node.days', { days: n.days_left })}
        </Figure>
        <Figure label={t('node.mined')}>
          <Amount value={n.mined} measure="NADI" />
        </Figure>
        <Figure label={t('node.feeShare')}>
          <Amount value={n.fee_share} measure="NADI" />
        </Figure>
        <Figure label={t('node.dividends')} testId="my-node-dividends">
          <Amount value={n.dividends.USDT} measure="USDT" /> · <Amount value={n.dividends.NADI} measure="NADI" />
        </Figure>
        {units(n.loan_debt) > 0n && (
          <Figure label={t('node.loanDebt')} testId="my-node-debt">
            <Amount value={n.loan_debt} measure="USDT" />
          </Figure>
        )}
      </dl>
      <p className="small muted">
        {n.start_at !== null && n.end_at !== null ? t('node.period', { from: day(n.start_at), to: day(n.end_at) }) : t('node.awaitingPayment')}
        {' · '}
        <span className="mono">{n.order_no}</span>
      </p>
      {n.status === 'active' && units(n.loan_debt) > 0n && n.days_left === 0 && <p className="small form-error">{t('node.heldForLoan')}</p>}
    </li>
  )
}
