import type { ReactNode } from 'react'

/** One labelled figure of a `<dl>` (a tier's stake, a pledge's rate, a day's power): the label small and muted above its value. */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="muted small">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  )
}
