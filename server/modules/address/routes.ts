import { Type } from 'typebox'
import type { FastifyError, FastifyRequest } from 'fastify'
import { Envelope, IdQuery } from '../../../contract/envelope.ts'
import { AddAddressBody, Address, AddressIdBody, EditAddressBody } from '../../../contract/address.ts'
import { requireAuth } from '../../http/auth.ts'
import { ApiError, badRequest } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { translate } from '../../i18n.ts'
import { phoneInvalid, type AddressService } from './service.ts'

// A missing field says what to fill in, the same words as a blank one.
const MISSING: Record<string, () => ApiError> = {
  name: () => badRequest('errors.addressNameRequired'),
  phone: phoneInvalid,
  area: () => badRequest('errors.areaRequired'),
  address: () => badRequest('errors.addressDetailRequired'),
}
// fields.name and fields.address would read "name" and "wallet address" (the sign-in body's field).
const LABEL: Record<string, string> = { name: 'fields.recipientName', address: 'fields.addressDetail' }

/**
 * Body errors of the address forms in the words of the form; everything else goes on to the app's
 * error handler (a route error handler that throws hands its error to the parent one).
 */
function addressFormErrors(err: FastifyError, req: FastifyRequest): never {
  const v = err.validation?.[0]
  if (v && err.validationContext === 'body') {
    const missing = (v.params as { missingProperty?: string }).missingProperty
    const asMissing = v.keyword === 'required' && v.instancePath === '' && missing ? MISSING[missing] : undefined
    if (asMissing) throw asMissing()
    const label = LABEL[v.instancePath.replace(/^\//, '')]
    if (label) throw badRequest('errors.invalidField', { field: translate(req.lang, label) })
  }
  throw err
}

/** requireAuth guarantees a user. */
const uid = (req: FastifyRequest) => req.user!.id

export function addressRoutes(app: App, addresses: AddressService) {
  const tags = ['address']

  app.get(
    '/api/v1/address/addressList',
    { preHandler: requireAuth, schema: { tags, summary: 'The caller’s addresses, the default first, then newest', response: { 200: Envelope(Type.Array(Address)) } } },
    async (req) => ok(req, await addresses.list(uid(req))),
  )

  app.get(
    '/api/v1/address/addressDetail',
    { preHandler: requireAuth, schema: { tags, summary: 'One of the caller’s addresses', querystring: IdQuery, response: { 200: Envelope(Address) } } },
    async (req) => ok(req, await addresses.detail(uid(req), req.query.id)),
  )

  app.get(
    '/api/v1/address/getDefaultAddress',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'The caller’s default address, or null without addresses', response: { 200: Envelope(Type.Union([Address, Type.Null()])) } },
    },
    async (req) => ok(req, await addresses.getDefault(uid(req))),
  )

  app.post(
    '/api/v1/address/addAddress',
    {
      preHandler: requireAuth,
      errorHandler: addressFormErrors,
      schema: {
        tags,
        summary: `Save a new address (the first one becomes the default); 409 at the limit`,
        body: AddAddressBody,
        response: { 200: Envelope(Address) },
      },
    },
    async (req) => ok(req, await addresses.add(uid(req), req.body)),
  )

  app.post(
    '/api/v1/address/editAddress',
    {
      preHandler: requireAuth,
      errorHandler: addressFormErrors,
      schema: { tags, summary: 'Replace the fields of one of the caller’s addresses', body: EditAddressBody, response: { 200: Envelope(Address) } },
    },
    async (req) => ok(req, await addresses.edit(uid(req), req.body)),
  )

  app.post(
    '/api/v1/address/setDefaultAddress',
    { preHandler: requireAuth, schema: { tags, summary: 'Make one of the caller’s addresses the default', body: AddressIdBody, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await addresses.setDefault(uid(req), req.body.id)
      return ok(req, null)
    },
  )

  app.post(
    '/api/v1/address/deleteAddress',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Delete one of the caller’s addresses; deleting the default makes the newest left the default', body: AddressIdBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      await addresses.remove(uid(req), req.body.id)
      return ok(req, null)
    },
  )
}
