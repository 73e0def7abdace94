// Socket frames (DESIGN §5). Types only: the server validates frames by hand since they arrive as text.

export type ClientFrame =
  | { method: 'SUBSCRIBE' | 'UNSUBSCRIBE'; params: string[]; id?: number | string }
  | { method: 'GET_TIME'; id?: number | string }

export type AckFrame = { id: number | string | null; result: unknown }
export type ErrorFrame = { id: number | string | null; error: { code: number; msg: string } }

export interface PushFrame<T = unknown> {
  arg: { channel: string; instId?: string }
  action: 'snapshot' | 'update'
  data: T[]
}
