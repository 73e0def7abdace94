import { signal } from '@preact/signals-react'

export interface ToastItem {
  id: number
  kind: 'info' | 'success' | 'error'
  text: string
}

export const toasts = signal<ToastItem[]>([])
let seq = 0

function show(kind: ToastItem['kind'], text: string, ms = 2600) {
  // The same message twice in a row (a burst of failing calls) shows once.
  if (toasts.value.some((x) => x.text === text)) return
  const id = ++seq
  toasts.value = [...toasts.value.slice(-2), { id, kind, text }]
  setTimeout(() => (toasts.value = toasts.value.filter((x) => x.id !== id)), ms)
}

export const toast = {
  info: (text: string) => show('info', text),
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text, 3600),
}
