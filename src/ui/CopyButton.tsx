import { useT } from '../i18n/index.ts'
import { copyText } from '../lib/clipboard.ts'
import { Icon } from './Icon.tsx'
import { toast } from './toast.ts'

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const t = useT()
  return (
    <button
      className="copy-btn"
      onClick={async () => {
        if (await copyText(text)) toast.success(t('common.copied'))
        else toast.error(t('errors.copyFailed'))
      }}
      aria-label={label ?? t('common.copy')}
    >
      <Icon name="copy" size={18} />
      {label && <span>{label}</span>}
    </button>
  )
}
