export function Spinner({ page }: { page?: boolean }) {
  return (
    <div className={page ? 'spinner-page' : 'spinner-inline'} role="progressbar" aria-busy="true">
      <span className="spinner" />
    </div>
  )
}
