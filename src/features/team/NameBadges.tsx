import { useT } from '../../i18n/index.ts'

/** The level T{level} from nodes and the advanced-agent badge, beside a user's name wherever it is shown. */
export function NameBadges({ level, agent }: { level: number; agent: boolean }) {
  const t = useT()
  return (
    <>
      {level > 0 && (
        <span className="badge gold" title={t('team.level', { level })} data-testid="level-badge">
          T{level}
        </span>
      )}
      {agent && (
        <span className="badge teal" title={t('team.agentMember')} data-testid="agent-badge">
          {t('team.agent')}
        </span>
      )}
    </>
  )
}
