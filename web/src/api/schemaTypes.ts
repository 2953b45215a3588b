/**
 * The shapes of the generated schema's operations (`operations['getUsers']`) the hooks name their
 * types with: the envelope's `data` of a 200, the JSON body, the query.
 */
type Json<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;
export type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;
export type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
export type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
