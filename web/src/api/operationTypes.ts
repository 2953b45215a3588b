/**
 * The types of a generated operation (`operations['getFiles']` of schema.d.ts): what its 200
 * answer's `data` is, its JSON body and its query. For new API modules; the older ones declare
 * the same three lines themselves.
 */
type Json<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;
export type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;
export type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
export type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
