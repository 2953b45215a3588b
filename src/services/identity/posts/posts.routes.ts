import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission } from '../identity.permissions.js';
import { idParams } from '../identity.schema.js';
import { createPostBody, listPostsQuery, postView, updatePostBody } from './posts.schema.js';
import type { PostsService } from './posts.service.js';

const tags = ['identity'];

export function registerPostRoutes(app: HttpApp, posts: PostsService): void {
  app.get(
    '/api/v1/posts',
    {
      onRequest: requirePermission('system:post:list'),
      schema: {
        tags,
        summary: 'Posts (job positions) of the tenant, by sort then id',
        querystring: listPostsQuery,
        response: { 200: envelopeOf(listOf(postView)) },
      },
    },
    async (request) => ok(await posts.list(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/posts/:id',
    {
      onRequest: requirePermission('system:post:list'),
      schema: {
        tags,
        summary: 'One post',
        params: idParams,
        response: { 200: envelopeOf(postView) },
      },
    },
    async (request) => ok(await posts.get(principalOf(request), request.params.id)),
  );
  app.post(
    '/api/v1/posts',
    {
      onRequest: requirePermission('system:post:create'),
      schema: {
        tags,
        summary: 'Create a post',
        body: createPostBody,
        response: { 200: envelopeOf(postView) },
      },
    },
    async (request) => ok(await posts.create(principalOf(request), request.body)),
  );
  app.put(
    '/api/v1/posts/:id',
    {
      onRequest: requirePermission('system:post:update'),
      schema: {
        tags,
        summary: 'Change a post (partial)',
        params: idParams,
        body: updatePostBody,
        response: { 200: envelopeOf(postView) },
      },
    },
    async (request) =>
      ok(await posts.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/v1/posts/:id',
    {
      onRequest: requirePermission('system:post:delete'),
      schema: {
        tags,
        summary: 'Delete a post nobody holds (409 otherwise)',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await posts.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
