/**
 * The system administration calls (settings, dictionaries, notices, error texts, notification
 * templates) as TanStack Query hooks over the generated client, so the system pages never call
 * the API themselves and every change refreshes the lists it touches (a notice's change also
 * the notices in effect the dashboard shows).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from './client';
import { ApiError } from './errors';
import type { operations } from './schema';
import type { Body, Ok, Query } from './schemaTypes';

export type Setting = Ok<operations['getSystemSettingsByKey']>;
export type SettingType = Setting['type'];
export type SettingQuery = Query<operations['getSystemSettings']>;
export type SettingInput = Body<operations['putSystemSettingsByKey']>;
export type Dict = Ok<operations['getSystemDictsById']>;
export type DictItem = Dict['items'][number];
export type DictQuery = Query<operations['getSystemDicts']>;
export type DictInput = Body<operations['postSystemDicts']>;
export type DictItemInput = NonNullable<DictInput['items']>[number];
export type DictOptions = Ok<operations['getSystemDictsByCodeItems']>;
export type Notice = Ok<operations['getNoticesById']>;
export type NoticeLevel = Notice['level'];
export type NoticeQuery = Query<operations['getNotices']>;
export type NoticeInput = Body<operations['postNotices']>;
export type ErrorText = Ok<operations['getSystemErrorTexts']>[number];
export type Template = Ok<operations['getSystemTemplates']>[number];
export type TemplateInput = Body<operations['putSystemTemplatesByKeyByLang']>;

export type SystemArea = 'settings' | 'dicts' | 'notices' | 'errorTexts' | 'templates';

/** Every key starts with `system` and its area, so a change refreshes exactly its area. */
export const systemKeys = {
  area: (area: SystemArea) => ['system', area] as const,
  list: (area: SystemArea, query: object) => ['system', area, 'list', query] as const,
  all: (area: SystemArea) => ['system', area, 'all'] as const,
};

/** A call whose answer carries nothing to read (a delete): only its failure matters. */
async function done(call: Promise<unknown>): Promise<void> {
  await call;
}

const id = (value: number) => ({ params: { path: { id: value } } });
const settingKey = (key: string) => ({ params: { path: { key } } });
const template = (t: { key: string; lang: string }) => ({
  params: { path: { key: t.key, lang: t.lang } },
});

export function useSettings(query: SettingQuery) {
  return useQuery({
    queryKey: systemKeys.list('settings', query),
    queryFn: () => data(api.GET('/api/v1/system/settings', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useDicts(query: DictQuery) {
  return useQuery({
    queryKey: systemKeys.list('dicts', query),
    queryFn: () => data(api.GET('/api/v1/system/dicts', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useNotices(query: NoticeQuery) {
  return useQuery({
    queryKey: systemKeys.list('notices', query),
    queryFn: () => data(api.GET('/api/v1/notices', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * Every error code with its texts (a short fixed catalogue, one call), seen through `select`: the
 * page filters and pages it itself.
 */
export function useErrorTexts<R>(select: (all: ErrorText[]) => R) {
  return useQuery({
    queryKey: systemKeys.all('errorTexts'),
    queryFn: () => data(api.GET('/api/v1/system/error-texts')),
    select,
  });
}

/** Every notification template in every language (a fixed catalogue), seen through `select`. */
export function useTemplates<R>(select: (all: Template[]) => R) {
  return useQuery({
    queryKey: systemKeys.all('templates'),
    queryFn: () => data(api.GET('/api/v1/system/templates')),
    select,
  });
}

/** The calls the pages change things with, by area. */
export const systemCalls = {
  /** A setting by key, or null when there is none (to refuse creating one twice). */
  findSetting: async (key: string): Promise<Setting | null> => {
    try {
      return await data(api.GET('/api/v1/system/settings/{key}', settingKey(key)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
  putSetting: (v: { key: string; body: SettingInput }) =>
    data(api.PUT('/api/v1/system/settings/{key}', { ...settingKey(v.key), body: v.body })),
  deleteSetting: (key: string) =>
    done(api.DELETE('/api/v1/system/settings/{key}', settingKey(key))),
  createDict: (body: DictInput) => data(api.POST('/api/v1/system/dicts', { body })),
  updateDict: (v: { id: number; body: Partial<DictInput> }) =>
    data(api.PUT('/api/v1/system/dicts/{id}', { ...id(v.id), body: v.body })),
  deleteDict: (dictId: number) => done(api.DELETE('/api/v1/system/dicts/{id}', id(dictId))),
  createNotice: (body: NoticeInput) => data(api.POST('/api/v1/notices', { body })),
  updateNotice: (v: { id: number; body: Partial<NoticeInput> }) =>
    data(api.PUT('/api/v1/notices/{id}', { ...id(v.id), body: v.body })),
  deleteNotice: (noticeId: number) => done(api.DELETE('/api/v1/notices/{id}', id(noticeId))),
  updateErrorText: (v: { code: number; message: string }) =>
    data(
      api.PUT('/api/v1/system/error-texts/{code}', {
        params: { path: { code: String(v.code) } },
        body: { message: v.message },
      }),
    ),
  restoreErrorText: (code: number) =>
    data(
      api.DELETE('/api/v1/system/error-texts/{code}', { params: { path: { code: String(code) } } }),
    ),
  updateTemplate: (v: { key: string; lang: string; body: TemplateInput }) =>
    data(api.PUT('/api/v1/system/templates/{key}/{lang}', { ...template(v), body: v.body })),
  restoreTemplate: (v: { key: string; lang: string }) =>
    data(api.DELETE('/api/v1/system/templates/{key}/{lang}', template(v))),
};

/**
 * A change in one area: on success every query of the area is refetched; a notice's change also
 * refreshes the notices in effect (`['notices', 'effective']`, the dashboard's).
 */
export function useSystemMutation<V, R>(fn: (v: V) => Promise<R>, area: SystemArea) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      const refreshes = [client.invalidateQueries({ queryKey: systemKeys.area(area) })];
      if (area === 'notices') refreshes.push(client.invalidateQueries({ queryKey: ['notices'] }));
      await Promise.all(refreshes);
    },
  });
}
