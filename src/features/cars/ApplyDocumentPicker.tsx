import { useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { useUploadDocument } from './applyMutations.ts'
import { useUploadedPreview } from './applyQueries.ts'
import { ACCEPT, fileProblem } from './applyUpload.ts'
import type { CarDocument, Problem } from './applyValidation.ts'

interface Props {
  doc: CarDocument
  label: string
  optional?: boolean
  /** The uploaded file's key, '' when none. */
  value: string
  onChange: (key: string) => void
  onBusy: (busy: boolean) => void
  problem?: Problem | undefined
}

/**
 * One document of the application: choose a file (images or PDF), watch it upload through the
 * presigned URL, see what the server stored. Uploading needs the network: offline the picker is
 * disabled and says why (the application itself may still be queued once its files are in).
 */
export function ApplyDocumentPicker({ doc, label, optional, value, onChange, onBusy, problem }: Props) {
  useSignals()
  const t = useT()
  const upload = useUploadDocument()
  const [progress, setProgress] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const abort = useRef<AbortController | null>(null)
  const isPdf = value.endsWith('.pdf')
  const preview = useUploadedPreview(value || null, !isPdf)
  const offline = !online.value
  const busy = upload.isPending

  async function pick(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0]
    e.target.value = '' // the same file may be picked again after a failure
    if (!file) return
    const p = fileProblem(file)
    if (p) {
      setError(t(p.key, p.params))
      return
    }
    setError(null)
    setProgress(0)
    abort.current = new AbortController()
    onBusy(true)
    try {
      const key = await upload.mutateAsync({ file, onProgress: setProgress, signal: abort.current.signal })
      onChange(key)
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError(`${t('upload.failed')}: ${(err as Error).message}`)
    } finally {
      onBusy(false)
    }
  }

  const shown = error ?? (problem ? t(problem.key, problem.params) : null)
  return (
    <div className={`apply-doc ${value ? 'done' : ''} ${shown ? 'invalid' : ''}`} data-testid={`doc-${doc}`} data-state={busy ? 'uploading' : value ? 'uploaded' : 'empty'}>
      <div className="apply-thumb" aria-hidden={!preview.url}>
        {value && !isPdf && preview.url ? <img src={preview.url} alt={t('upload.preview', { document: label })} data-testid={`thumb-${doc}`} /> : value && isPdf ? <span>{t('upload.pdf')}</span> : <span>{busy ? `${Math.round(progress * 100)}%` : '+'}</span>}
      </div>
      <div className="apply-doc-body">
        <strong>
          {label} {optional && <small className="muted">({t('carApply.optional')})</small>}
        </strong>
        {busy ? (
          <>
            <span className="apply-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
              <span style={{ width: `${Math.round(progress * 100)}%` }} />
            </span>
            <small className="muted">{t('upload.uploading', { percent: Math.round(progress * 100) })}</small>
          </>
        ) : (
          value && <small className="muted">{t('upload.uploaded')}</small>
        )}
        {shown && (
          <small className="form-error" role="alert" data-field={doc}>
            {shown}
          </small>
        )}
        <div className="apply-doc-actions">
          {busy ? (
            <button type="button" className="btn ghost small" onClick={() => abort.current?.abort()}>
              {t('common.cancel')}
            </button>
          ) : (
            <label className="btn ghost small" aria-disabled={offline}>
              {value ? t('upload.replace') : t('upload.choose')}
              <input type="file" name={doc} accept={ACCEPT} onChange={pick} disabled={offline} aria-label={`${label}: ${value ? t('upload.replace') : t('upload.choose')}`} />
            </label>
          )}
          {value && !busy && (
            <button type="button" className="btn ghost small" onClick={() => onChange('')}>
              {t('upload.remove')}
            </button>
          )}
        </div>
      </div>
    </div>
  )
}
